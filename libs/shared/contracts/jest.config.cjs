/** Unit tests of the shared contracts (pricing, email key, validation rules and messages). */
module.exports = {
  displayName: 'contracts',
  ...require('../../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
