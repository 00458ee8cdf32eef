/** Tests of the tests' SMTP server: real SMTP (nodemailer) against it on a local port. */
module.exports = {
  displayName: 'testing-smtp',
  ...require('../../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
