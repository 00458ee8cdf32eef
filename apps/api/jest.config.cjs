/** Unit tests of the API: logic tested alone (`*.spec.ts`), no database. */
module.exports = {
  displayName: 'api',
  ...require('../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
