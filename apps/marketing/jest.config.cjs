/** Component tests of the marketing remote, in jsdom. */
module.exports = {
  displayName: 'marketing',
  ...require('../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
