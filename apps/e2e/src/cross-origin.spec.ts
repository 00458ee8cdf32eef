import { expect, type Page } from '@playwright/test';
import { REMOTE_ORIGINS } from '../playwright.cross-origin.config';
import { signUp, test } from './support';

// Runs only in playwright.cross-origin.config.ts: marketing and dashboard are each served by a
// static server on an origin of its own. `test` (./support) fails on any console error (a CSP
// refusal is one), failed request or error reply.

/** Every URL the page requested from `origin`, as paths, from the moment this is called. */
function requestsTo(page: Page, origin: string): string[] {
  const paths: string[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (url.origin === origin) paths.push(url.pathname);
  });
  return paths;
}

test('the shell is told to load marketing and dashboard from their own origins', async ({
  request,
}) => {
  const manifest = await (await request.get('/remotes.json')).json();
  expect(manifest.marketing).toBe(`${REMOTE_ORIGINS.marketing}/mf-manifest.json`);
  expect(manifest.dashboard).toBe(`${REMOTE_ORIGINS.dashboard}/mf-manifest.json`);
  expect(manifest.referral).toBe('/remotes/referral/mf-manifest.json');
});

test('the home page renders with the marketing remote’s scripts and CSS from its origin', async ({
  page,
}) => {
  const fromMarketing = requestsTo(page, REMOTE_ORIGINS.marketing);
  await page.goto('/');
  await expect(
    page.getByRole('heading', {
      level: 1,
      name: 'Grow your gym through the people who already love it',
    }),
  ).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The first HTML carries the prerendered page; the app (and so the remote) loads on the
  // visitor's first use or once the page is idle, then replaces it.
  await expect(page.locator('#grove-prerendered')).toHaveCount(0, { timeout: 20_000 });
  expect(fromMarketing).toContain('/mf-manifest.json');
  expect(fromMarketing).toContain('/remoteEntry.js');
  expect(fromMarketing.some((file) => file.endsWith('.css'))).toBe(true);
  // The remote's CSS really applies: the footer's layout comes from marketing.css. Read on the
  // live page.
  const display = await page
    .locator('#root .mk-main')
    .first()
    .evaluate((element) => getComputedStyle(element).display);
  expect(display).toBe('block');
});

test('landing page: the poster and the video come from the marketing origin and play', async ({
  page,
}) => {
  await page.goto('/landingPage');
  const video = page.getByLabel(/Grove product tour/);
  await expect(video).toBeVisible();
  expect(await video.getAttribute('poster')).toMatch(
    new RegExp(`^${REMOTE_ORIGINS.marketing}/assets/`),
  );
  expect(await video.locator('source').getAttribute('src')).toMatch(
    new RegExp(`^${REMOTE_ORIGINS.marketing}/assets/.+\\.mp4$`),
  );
  const posterShown = await video.evaluate(
    (element: HTMLVideoElement) =>
      new Promise<boolean>((resolve) => {
        const image = new Image();
        image.onload = () => resolve(image.naturalWidth > 0);
        image.onerror = () => resolve(false);
        image.src = element.poster;
      }),
  );
  expect(posterShown).toBe(true);
  const playable = await video.evaluate(
    (element: HTMLVideoElement) =>
      new Promise<boolean>((resolve) => {
        element.addEventListener('loadeddata', () => resolve(true), { once: true });
        element.addEventListener('error', () => resolve(false), { once: true });
        element
          .querySelector('source')
          ?.addEventListener('error', () => resolve(false), { once: true });
        element.load();
      }),
  );
  expect(playable).toBe(true);
});

test('contact: the self-hosted captcha solves, its workers started from the marketing origin', async ({
  page,
}) => {
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto('/contact');
  await page.getByText("I'm not a robot").click();
  await expect(page.getByText('Verified')).toBeVisible({ timeout: 30_000 });
  // A browser starts no worker from another origin's URL: each starts from a blob: that imports it.
  expect(workers.length).toBeGreaterThan(0);
  for (const url of workers) expect(url).toMatch(/^blob:/);
});

test('an owner signs up into the dashboard remote served from its own origin', async ({ page }) => {
  const fromDashboard = requestsTo(page, REMOTE_ORIGINS.dashboard);
  await signUp(page);
  await expect(page.getByText('View and manage your trees and their branches.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add New Tree' })).toBeVisible();
  expect(fromDashboard).toContain('/remoteEntry.js');
  expect(fromDashboard.some((file) => file.endsWith('.css'))).toBe(true);
});

test('a link preview of /pricing gets the page prerendered by the marketing build on its origin', async ({
  request,
}) => {
  const reply = await request.get('/pricing', {
    headers: { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
  });
  const html = await reply.text();
  expect(html).toContain('<title>Pricing · Grove</title>');
  expect(html).toContain('Simple &amp; Transparent Pricing');
  expect(html).toContain(
    `<meta property="og:image" content="${REMOTE_ORIGINS.marketing}/prerendered/og/pricing.`,
  );
});
