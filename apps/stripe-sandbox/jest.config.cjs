/** Tests of the Stripe sandbox: real HTTP against the server on a free port, through the official SDK. */
module.exports = {
  displayName: 'stripe-sandbox',
  ...require('../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
