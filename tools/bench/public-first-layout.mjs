#!/usr/bin/env node
// What each public page's first style + layout costs (issue 35's TBT: Lighthouse's Lantern counts
// that task ×2 and the tasks around it ×4; docs/decisions/public-site-prerendered-by-the-marketing-build.md):
// loads every public page of a running Grove in Debian's Chromium at Lighthouse's mobile viewport
// (412×823 at 1.75×), each in a fresh browser context (a fresh renderer, as Lighthouse's), with the
// app's `main.js` refused (Lighthouse's trace ends before the page's loader would fetch it), traces
// it and prints, per page, the medians over BENCH_RUNS loads of the tasks before the first
// contentful paint: the longest task and their sum (ms), the longest task's CPU time (ms: the
// thread's own time, less sensitive to a busy machine than the wall time, but not counting the
// waits on the browser), style and layout (ms), and what the layout had to do: layout objects,
// font strikes (one synchronous call to the browser per font file × size: two weights drawn from
// one file, 400 and 500 of DejaVu Sans, share a strike), family lookups (one synchronous call per
// weight asked for), text runs shaped, synchronous calls to the browser. The counts do not
// depend on the machine's load; the durations do.
//   BENCH_BASE=http://localhost:3000 node tools/bench/public-first-layout.mjs
// Environment: BENCH_BASE (a running Grove, `npm start`), BENCH_PAGES="/,/about", BENCH_RUNS=n
// (default 5), BENCH_THROTTLE=4 (CPU slowdown in the browser; default none, as Lighthouse's
// simulation traces unthrottled), CHROME_PATH (default /usr/bin/chromium). BENCH_CSS="<rules>"
// measures each page also with those rules added to its head, alternated with the page as sent, in
// the same run (an A/B of a CSS change without a rebuild). A prerendered page's own styles follow
// its head, so a rule that undoes one of them needs a more specific selector (`html body .x`).
import { chromium } from '@playwright/test';
import { median, publicPages } from './harness.mjs';

const base = process.env.BENCH_BASE;
if (!base) throw new Error('BENCH_BASE=http://localhost:<port> (a running Grove) is needed');
const pages = publicPages();
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const throttle = Number(process.env.BENCH_THROTTLE ?? 1);
const extraCss = process.env.BENCH_CSS;
const variants = extraCss ? ['as sent', 'with BENCH_CSS'] : ['as sent'];
const CATEGORIES =
  'devtools.timeline,disabled-by-default-devtools.timeline,toplevel,blink,fonts,base';
const count = {
  strikes: 'WebSandboxSupportLinux::GetWebFontRenderStyleForStrike',
  familyLookups: 'FontDataManager::onMatchFamilyStyle',
  shaped: 'InlineNode::ShapeTextIncludingFirstLine',
  syncCalls: 'ScopedBlockingCallWithBaseSyncPrimitives',
};

/** One load of `path`: the renderer's tasks from its first real layout to the first contentful paint. */
async function measure(browser, path, html) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  if (html)
    await page.route(base + path, (route) =>
      route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }),
    );
  await page.route(/\/main\.[0-9a-f]+\.js$/, (route) => route.abort());
  const cdp = await context.newCDPSession(page);
  if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const events = [];
  cdp.on('Tracing.dataCollected', (data) => events.push(...data.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await page.goto(base + path, { waitUntil: 'load' });
  await page.waitForTimeout(400);
  await cdp.send('Tracing.end');
  await complete;
  await context.close();
  const fcp = events.find((event) => event.name === 'firstContentfulPaint');
  for (const thread of events.filter(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  )) {
    const own = events.filter(
      (e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X' && e.dur != null,
    );
    // The page's first layout (the initial empty document's has one object).
    const layout = own
      .filter((e) => e.name === 'Layout' && (e.args?.beginData?.totalObjects ?? 0) > 15)
      .sort((a, b) => a.ts - b.ts)[0];
    if (!layout) continue;
    const tasks = own.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.dur > 1000);
    const first = tasks.find(
      (task) => task.ts <= layout.ts && task.ts + task.dur >= layout.ts + layout.dur,
    );
    if (!first) continue;
    const end = fcp?.ts ?? layout.ts + 2e6;
    const before = tasks.filter((task) => task.ts >= first.ts && task.ts < end);
    if (before.length === 0) continue; // painted before that layout: not a load to count
    const inside = (event) =>
      before.some((task) => event.ts >= task.ts && event.ts + event.dur <= task.ts + task.dur);
    const named = (name) => own.filter((event) => event.name === name && inside(event));
    const ms = (name) => named(name).reduce((sum, event) => sum + event.dur, 0) / 1000;
    const longest = before.reduce((max, task) => (task.dur > max.dur ? task : max));
    return {
      longestMs: longest.dur / 1000,
      sumMs: before.reduce((sum, task) => sum + task.dur, 0) / 1000,
      longestCpuMs: (longest.tdur ?? 0) / 1000,
      styleMs: ms('UpdateLayoutTree'),
      layoutMs: ms('Layout'),
      objects: Math.max(...named('Layout').map((event) => event.args.beginData.totalObjects)),
      ...Object.fromEntries(Object.entries(count).map(([key, name]) => [key, named(name).length])),
    };
  }
  return null;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const results = new Map();
try {
  const sent = new Map();
  for (const path of pages) sent.set(path, await (await fetch(base + path)).text());
  for (let round = 0; round < runs; round++) {
    for (const path of pages) {
      for (const variant of variants) {
        const html =
          variant === 'as sent'
            ? null
            : sent.get(path).replace('</head>', `<style>${extraCss}</style></head>`);
        const run = await measure(browser, path, html);
        if (run)
          results.set(`${path} ${variant}`, [...(results.get(`${path} ${variant}`) ?? []), run]);
      }
    }
  }
} finally {
  await browser.close();
}
const rows = [...results].map(([label, list]) => {
  const of = (key) => median(list.map((run) => run[key]));
  return {
    page: label,
    longestMs: of('longestMs').toFixed(1),
    sumMs: of('sumMs').toFixed(1),
    longestCpuMs: of('longestCpuMs').toFixed(1),
    styleMs: of('styleMs').toFixed(1),
    layoutMs: of('layoutMs').toFixed(1),
    objects: of('objects'),
    strikes: of('strikes'),
    familyLookups: of('familyLookups'),
    shaped: of('shaped'),
    syncCalls: of('syncCalls'),
    loads: list.length,
  };
});
console.table(rows);
