/** Tests of the Mindbody sandbox: real HTTP against the server on a free port. */
module.exports = {
  displayName: 'mindbody-sandbox',
  ...require('../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
