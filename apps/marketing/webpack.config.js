// The marketing remote: built and deployed on its own, loaded by the shell at run time. Plus its
// pages prerendered to HTML (dist/apps/marketing/prerendered/), which the API sends as the first
// HTML of each public path (docs/architecture.md#prerendered-pages): they ship with the remote's
// version.
const path = require('node:path');
const { webAppConfig, prerenderConfig } = require('../../tools/webpack/web-app.cjs');

// The landing page's video poster, its largest paint, re-encoded for the size it is shown at: at most
// ~580 CSS px wide beside the copy (≥ 880 px windows), ~650 device px on a phone (Lighthouse's
// mobile: 371 CSS px at 1.75×). 768 px AVIF at quality 50 is 13.7 KB (the 960 px WebP source,
// 27.8 KB, stays in the repository): within TCP's first window (10 segments, 14,600 bytes with
// the reply's headers), SSIM 0.987–0.990 against the source at those sizes
// (src/features/landing/assets/README.md, docs/decisions/public-site-prerendered-by-the-marketing-build.md).
const renditions = {
  'product-tour-poster.webp': { width: 768, format: 'avif', quality: 50 },
};

const configs = [
  webAppConfig({
    name: 'marketing',
    exposes: { './Routes': './src/remote-entry.tsx' },
    renditions,
  }),
  prerenderConfig({
    name: 'marketing',
    entry: './src/prerender/prerender.tsx',
    // The shell's top bar, which the prerendered pages mirror (src/prerender/prerender.tsx).
    styles: [path.join(__dirname, '../shell/src/app/layouts/layouts.css')],
    renditions,
  }),
];

module.exports = configs;
// Read by tools/webpack/image-rendition-loader.test.mjs.
module.exports.renditions = renditions;
