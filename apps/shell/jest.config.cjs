/** Component tests of the shell, in jsdom. */
module.exports = {
  displayName: 'shell',
  ...require('../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts?(x)'],
};
