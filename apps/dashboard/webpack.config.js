// The dashboard remote: built and deployed on its own, loaded by the shell at run time.
const { webAppConfig } = require('../../tools/webpack/web-app.cjs');

module.exports = webAppConfig({
  name: 'dashboard',
  exposes: {
    './Routes': './src/remote-entry.tsx',
    './ReferralLinks': './src/referral-links-entry.tsx',
  },
});
