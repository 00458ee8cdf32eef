// The referral remote: built and deployed on its own, loaded by the shell at run time.
const { webAppConfig } = require('../../tools/webpack/web-app.cjs');

module.exports = webAppConfig({
  name: 'referral',
  exposes: { './Routes': './src/remote-entry.tsx', './Member': './src/member-entry.tsx' },
});
