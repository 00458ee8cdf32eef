/** Component tests of the referral remote, in jsdom. */
module.exports = {
  displayName: 'referral',
  ...require('../../tools/jest/web-preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.tsx'],
};
