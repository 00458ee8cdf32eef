/** Tests of the Mindbody client library: real HTTP against an in-process Mindbody sandbox. */
module.exports = {
  displayName: 'api-mindbody',
  ...require('../../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
