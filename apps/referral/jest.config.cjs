/** Component tests of the referral remote, in jsdom. */
module.exports = {
  displayName: 'referral',
  ...require('../../tools/jest/preset.cjs'),
  testEnvironment: 'jsdom',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
