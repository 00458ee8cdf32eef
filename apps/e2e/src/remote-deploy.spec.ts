import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { workspaceRoot } from '../playwright.config';
import { test } from './support';

const run = promisify(execFile);
const OLD_HEADING = 'Grow your gym through the people who already love it';
const NEW_HEADING = 'Grow your gym with the friends your members bring';
/** The pricing page's text the new build changes (its prerendered page must show the new one). */
const OLD_PRICING_TEXT = 'arrive through Grove.';
const NEW_PRICING_TEXT = 'join through a referral link.';

/** `npm run <script> -- <args>` in the workspace, against the e2e server's REMOTES_DIR; its output. */
async function npmRun(script: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', script, '--', ...args], {
    cwd: workspaceRoot,
    env: { ...process.env, REMOTES_DIR: path.join(process.env.GROVE_E2E_STATE ?? '', 'remotes') },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** SHA-256 of every file under `dir`, by relative path. */
function hashes(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    result[path.relative(dir, file)] = createHash('sha256')
      .update(fs.readFileSync(file))
      .digest('hex');
  }
  return result;
}

test('a new marketing build is deployed, switched to and rolled back with the shell and the API untouched', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const untouched = ['shell', 'api'].map((app) => path.join(workspaceRoot, 'dist/apps', app));
  const before = untouched.map(hashes);
  expect(Object.keys(before[0])).toContain('index.html');

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: OLD_HEADING })).toBeVisible();

  // A real rebuild of the marketing remote from a copy of its sources with a changed hero text.
  const source = path.join(workspaceRoot, 'dist/e2e-remote-source/marketing');
  fs.rmSync(source, { recursive: true, force: true });
  fs.cpSync(path.join(workspaceRoot, 'apps/marketing'), source, { recursive: true });
  const home = path.join(source, 'src/features/home/HomePage.tsx');
  const original = fs.readFileSync(home, 'utf8');
  expect(original).toContain(OLD_HEADING);
  fs.writeFileSync(home, original.replace(OLD_HEADING, NEW_HEADING));
  const pricing = path.join(source, 'src/features/pricing/PricingPage.tsx');
  const pricingSource = fs.readFileSync(pricing, 'utf8');
  expect(pricingSource).toContain(OLD_PRICING_TEXT);
  fs.writeFileSync(pricing, pricingSource.replace(OLD_PRICING_TEXT, NEW_PRICING_TEXT));
  try {
    const deployed = await npmRun('remote:deploy', 'marketing', '--source', source);
    expect(deployed).toMatch(/marketing: built → \d{8}-\d{6}-[0-9a-f]{12}/);
  } finally {
    fs.rmSync(path.dirname(source), { recursive: true, force: true });
  }
  const listed = await npmRun('remote:list', 'marketing');
  const version = /\* (\d{8}-\d{6}-[0-9a-f]{12})/.exec(listed)?.[1] ?? '';
  expect(version).not.toBe('');

  // New page loads get the new build; nothing was restarted. The first HTML too: the new
  // version's prerendered page (docs/architecture.md#prerendered-pages), for link previews.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: NEW_HEADING })).toBeVisible();
  const firstHtml = await (
    await page.request.get('/', { headers: { 'User-Agent': 'WhatsApp/2.23' } })
  ).text();
  expect(firstHtml).toContain(NEW_HEADING);
  expect(firstHtml).toContain(`/remotes/marketing@${version}/prerendered/og/home.`);
  // The pricing page's first HTML, as a link preview reads it, has the new text.
  const pricingHtml = await (
    await page.request.get('/pricing', { headers: { 'User-Agent': 'facebookexternalhit/1.1' } })
  ).text();
  expect(pricingHtml).toContain(NEW_PRICING_TEXT);
  expect((await (await page.request.get('/remotes.json')).json()).marketing).toBe(
    `/remotes/marketing@${version}/mf-manifest.json`,
  );

  // Roll back to the build npm start serves, then forward again to the stored version (no build).
  await npmRun('remote:use', 'marketing', 'built');
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: OLD_HEADING })).toBeVisible();
  expect(await (await page.request.get('/')).text()).toContain(OLD_HEADING);
  await npmRun('remote:use', 'marketing', version);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: NEW_HEADING })).toBeVisible();
  await npmRun('remote:use', 'marketing', 'built');
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: OLD_HEADING })).toBeVisible();

  // The shell and the API are byte-identical to before.
  expect(untouched.map(hashes)).toEqual(before);
});
