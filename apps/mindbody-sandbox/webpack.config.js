// The Mindbody sandbox: a stand-in for the Mindbody Public API v6 (docs/architecture.md#mindbody).
const { nodeAppConfig } = require('../../tools/webpack/node-app.cjs');

module.exports = nodeAppConfig({ name: 'mindbody-sandbox' });
