// Each prerendered page's own stylesheet (tools/webpack/prerender-plugin.cjs, usedRules): the rules
// of the remote's whole stylesheet that the page's markup uses, nothing the page would miss
// without JavaScript (node --test; docs/decisions/public-site-prerendered-by-the-marketing-build.md).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const { usedRules } = require('./prerender-plugin.cjs');

/** A page as the marketing build renders it: the public top bar, pricing's card, a button. */
const PRICING = [
  '<div class="shell-public"><header class="shell-topbar"><a class="g-logo" href="/">',
  '<span class="g-logo__word">Grove</span></a><nav class="shell-topbar__links">',
  '<a aria-current="page" class="active" href="/pricing">Pricing</a>',
  '<a class="g-btn g-btn--primary" href="/signup">Sign Up</a></nav></header>',
  '<main class="mk-section"><h1 id="pre-pricing-title">Simple &amp; Transparent Pricing</h1>',
  '<div class="g-spinner" role="status"></div></main></div>',
].join('');

/** The remote's whole stylesheet: rules of this page and of others. */
const WHOLE = [
  ':root{--g-ink:#1c2b22}',
  '*,:before,:after{box-sizing:border-box}',
  'body{color:var(--g-ink)}',
  '.shell-topbar__links a:not(.g-btn):hover,.shell-topbar__links a.active:not(.g-btn){color:#226b45}',
  '.g-btn--primary:focus-visible{outline:3px solid #3f9a674d}',
  '@media (width<=440px){.shell-public .g-logo__word{display:none}.mk-hero__art{display:none}}',
  '.g-spinner{animation:g-spin 1s linear infinite}',
  '@keyframes g-spin{to{transform:rotate(360deg)}}',
  '@keyframes g-fade{to{opacity:0}}',
  '.mk-hero__art{width:360px}',
  '.mk-video__player{aspect-ratio:16/9}',
].join('');

test("keeps every rule the page's markup uses: its states, media queries, variables and animations", async () => {
  const css = await usedRules(WHOLE, PRICING);
  for (const kept of [
    ':root{--g-ink:#1c2b22}',
    '*,:before,:after{box-sizing:border-box}',
    'body{color:var(--g-ink)}',
    '.shell-topbar__links a.active:not(.g-btn)',
    '.shell-topbar__links a:not(.g-btn):hover',
    '.g-btn--primary:focus-visible{outline:3px solid #3f9a674d}',
    '.shell-public .g-logo__word{display:none}',
    '.g-spinner{animation:g-spin 1s linear infinite}',
    '@keyframes g-spin',
  ])
    assert.ok(css.includes(kept), `${kept} is kept in ${css}`);
});

test('drops the rules only other pages use', async () => {
  const css = await usedRules(WHOLE, PRICING);
  for (const dropped of ['mk-hero__art', 'mk-video__player', 'g-fade'])
    assert.ok(!css.includes(dropped), `${dropped} is dropped from ${css}`);
});
