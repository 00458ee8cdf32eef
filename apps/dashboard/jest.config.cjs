/** Component tests of the dashboard remote, in jsdom. */
module.exports = {
  displayName: 'dashboard',
  ...require('../../tools/jest/preset.cjs'),
  testEnvironment: 'jsdom',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
