// The Stripe sandbox: a stand-in for the Stripe API Grove uses (docs/stripe.md).
const { nodeAppConfig } = require('../../tools/webpack/node-app.cjs');

module.exports = nodeAppConfig({ name: 'stripe-sandbox' });
