/** Unit tests of the sealed-secret library (node:crypto, no database). */
module.exports = {
  displayName: 'sealed-secret',
  ...require('../../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
