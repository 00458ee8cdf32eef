/** Tests of the form helpers (contract rules on react-hook-form), in jsdom. */
module.exports = {
  displayName: 'web-forms',
  ...require('../../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts?(x)'],
};
