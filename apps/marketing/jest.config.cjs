/** Component tests of the marketing remote, in jsdom. */
module.exports = {
  displayName: 'marketing',
  ...require('../../tools/jest/preset.cjs'),
  testEnvironment: 'jsdom',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
