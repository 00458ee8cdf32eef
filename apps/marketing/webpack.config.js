// The marketing remote: built and deployed on its own, loaded by the shell at run time. Plus its
// pages prerendered to HTML (dist/apps/marketing/prerendered/), which the API sends as the first
// HTML of each public path (docs/architecture.md#prerendered-pages): they ship with the remote's
// version.
const path = require('node:path');
const { webAppConfig, prerenderConfig } = require('../../tools/webpack/web-app.cjs');

module.exports = [
  webAppConfig({
    name: 'marketing',
    exposes: { './Routes': './src/remote-entry.tsx' },
  }),
  prerenderConfig({
    name: 'marketing',
    entry: './src/prerender/prerender.tsx',
    // The shell's top bar, which the prerendered pages mirror (src/prerender/prerender.tsx).
    styles: [path.join(__dirname, '../shell/src/app/layouts/layouts.css')],
  }),
];
