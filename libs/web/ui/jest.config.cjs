/** Component tests of the design system, in jsdom. */
module.exports = {
  displayName: 'web-ui',
  ...require('../../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
