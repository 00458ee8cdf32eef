/** Component tests of the integrations remote, in jsdom. */
module.exports = {
  displayName: 'integrations',
  ...require('../../tools/jest/preset.cjs'),
  testEnvironment: 'jsdom',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.{ts,tsx}'],
};
