/**
 * The design system's stylesheets in cascade order (the order src/index.ts imports them), for a
 * bundle that takes the styles without the components: the inline pages the API renders
 * (apps/referral/webpack.config.js, pageAssetsConfig). Checked against src/index.ts by
 * tools/scripts/inline-page-markup.test.mjs.
 */
const path = require('node:path');

const designSystemStyles = [
  'base',
  'button',
  'field',
  'modal',
  'spinner',
  'alert',
  'empty-state',
  'card',
  'page-header',
  'table',
  'pagination',
  'logo',
  'centered-screen',
  'table-stack',
  'recovery-codes',
].map((name) => path.join(__dirname, 'src/lib', `${name}.css`));

module.exports = { designSystemStyles };
