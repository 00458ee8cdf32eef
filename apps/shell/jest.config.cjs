/** Component tests of the shell, in jsdom. */
module.exports = {
  displayName: 'shell',
  ...require('../../tools/jest/preset.cjs'),
  testEnvironment: 'jsdom',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts?(x)'],
};
