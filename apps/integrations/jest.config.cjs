/** Component tests of the integrations remote, in jsdom. */
module.exports = {
  displayName: 'integrations',
  ...require('../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.{ts,tsx}'],
};
