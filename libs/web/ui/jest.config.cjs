/** Component tests of the design system, in jsdom. */
module.exports = {
  displayName: 'web-ui',
  ...require('../../../tools/jest/preset.cjs'),
  testEnvironment: 'jsdom',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
