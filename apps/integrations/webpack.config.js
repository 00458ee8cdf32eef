// The integrations remote: built and deployed on its own, loaded by the shell at run time.
const { webAppConfig } = require('../../tools/webpack/web-app.cjs');

module.exports = webAppConfig({
  name: 'integrations',
  exposes: {
    './Routes': './src/remote-entry.tsx',
    './StripeSetup': './src/stripe-setup-entry.tsx',
  },
});
