// The referral remote: built and deployed on its own, loaded by the shell at run time. Plus the
// join page's inline script and stylesheet, which the API puts into the join page it renders
// itself (apps/api/src/app/referral/referrals/join-page; docs/architecture.md#join-page).
const { webAppConfig, pageAssetsConfig } = require('../../tools/webpack/web-app.cjs');
const { designSystemStyles } = require('../../libs/web/ui/styles.cjs');

module.exports = [
  webAppConfig({
    name: 'referral',
    exposes: { './Routes': './src/remote-entry.tsx', './Member': './src/member-entry.tsx' },
  }),
  pageAssetsConfig({
    name: 'referral',
    folder: 'join-page',
    entry: [
      ...designSystemStyles,
      './src/referral.css',
      './src/features/join/page/join-page.css',
      './src/features/join/page/join-page.ts',
    ],
  }),
  // The member page's (apps/api/src/app/member/member-page; docs/architecture.md#member-page).
  pageAssetsConfig({
    name: 'referral',
    folder: 'member-page',
    entry: [
      ...designSystemStyles,
      './src/member.css',
      './src/features/join/page/join-page.css',
      './src/features/member/page/member-page.ts',
    ],
  }),
];
