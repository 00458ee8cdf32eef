// The shell: Module Federation host. Remotes are registered at run time from /remotes.json.
const { webAppConfig } = require('../../tools/webpack/web-app.cjs');

module.exports = webAppConfig({
  name: 'shell',
  host: true,
  title: 'Grove — referrals that grow your gym',
});
