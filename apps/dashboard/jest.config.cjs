/** Component tests of the dashboard remote, in jsdom. */
module.exports = {
  displayName: 'dashboard',
  ...require('../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
