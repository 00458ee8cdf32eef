/** Tests of the typed API client and its hooks, in jsdom with a stubbed fetch. */
module.exports = {
  displayName: 'web-data-access',
  ...require('../../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts?(x)'],
};
