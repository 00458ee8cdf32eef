import { expect, test } from '@playwright/test';
import { MESSAGES } from '@grove/contracts';
import { accessibilityViolations, signUp, treeRow } from './support';

// The server of the journeys runs a Mindbody sandbox (tools/scripts/start.mjs, 300 clients in the
// e2e configuration) with this staff login (apps/mindbody-sandbox defaults).
const SANDBOX = {
  username: 'owner@sandbox.example.com',
  password: 'sandbox-pass-1234',
  siteId: '-99',
};

test('an owner connects Mindbody, imports members, sets discounts, syncs, sees managed rows and removes the integration', async ({
  page,
}) => {
  // docs/product.md#mindbody-stages polls every 10 seconds: an import and a sync each wait for at least one poll.
  test.setTimeout(120_000);
  await signUp(page);
  await page.getByRole('link', { name: 'Mindbody Setup' }).click();
  await expect(page).toHaveURL(/\/mindbody-setup$/);
  await expect(page.getByRole('heading', { name: 'Mindbody Setup' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connect your Mindbody account' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove integration' })).toHaveCount(0);
  expect(await accessibilityViolations(page)).toEqual([]);

  // Stage 1: the site ID first (this one has activated Grove), then the staff login, every field
  // required, a wrong password refused with SPEC's message.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(MESSAGES.mindbodyInvalidSiteId)).toBeVisible();
  await page.getByLabel('Site ID').fill(SANDBOX.siteId);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await expect(page.getByText('Invalid credentials provided').first()).toBeVisible();
  await page.getByLabel('Username').fill(SANDBOX.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials provided');
  await expect(page.getByRole('heading', { name: 'Connect your Mindbody account' })).toBeVisible();
  await page.getByLabel('Password').fill(SANDBOX.password);
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();

  // Stage 2: import, watch the progress, then stage 3.
  await expect(page.getByRole('heading', { name: 'Import your members' })).toBeVisible();
  await page.getByRole('button', { name: 'Import members' }).click();
  await expect(page.getByText('Still working on it, thanks for your patience')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Set your referral discounts' })).toBeVisible({
    timeout: 40_000,
  });
  await expect(page.getByText(/Members imported: 300 clients read/)).toBeVisible();

  // Stage 3: discounts, checked with SPEC's message, then stage 4.
  await page.getByLabel('Discount on referral ($)').fill('0');
  await page.getByRole('button', { name: 'Save discounts and finish' }).click();
  await expect(page.getByText('Please provide valid values.')).toBeVisible();
  await page.getByLabel('Discount on referral ($)').fill('10');
  await page.getByLabel('Discount for referee ($)').fill('5');
  await page.getByRole('button', { name: 'Save discounts and finish' }).click();
  await expect(page.getByRole('heading', { name: 'Sync with Mindbody' })).toBeVisible();
  await expect(page.getByText('Last sync: not yet')).toBeVisible();
  await expect(page.getByLabel('Discount on referral ($)')).toHaveValue('10.00');

  // Stage 4: sync; the last sync time appears when it has finished.
  await page.getByRole('button', { name: 'Sync with mindbody' }).click();
  await expect(page.getByText(/Last sync: \d{1,2} \w{3} \d{4}/)).toBeVisible({ timeout: 40_000 });
  expect(await accessibilityViolations(page)).toEqual([]);

  // The Branches screen shows Mindbody rows as managed, with no hand actions.
  await page.getByRole('link', { name: 'Branches' }).click();
  const managed = page.getByTestId('tree-row').filter({ hasText: 'Managed by Mindbody' });
  await expect(managed.first()).toBeVisible();
  await expect(managed.first().getByRole('button', { name: 'Add Branch' })).toHaveCount(0);
  await expect(managed.first()).toContainText('$10.00');
  const memberName = (await managed.first().getByRole('cell').first().innerText()).split('\n')[0];

  // Remove the integration: stage 1 again, members kept as ordinary trees.
  await page.getByRole('link', { name: 'Mindbody Setup' }).click();
  await page.getByRole('button', { name: 'Remove integration' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove the Mindbody integration?' });
  await confirm.getByRole('button', { name: 'Remove integration' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your Mindbody account' })).toBeVisible();
  await expect(page.getByLabel('Site ID')).toHaveValue('');

  await page.getByRole('link', { name: 'Branches' }).click();
  const kept = treeRow(page, memberName).first();
  await expect(kept).toBeVisible();
  await expect(kept.getByRole('button', { name: 'Add Branch' })).toBeVisible();
  await expect(page.getByText('Managed by Mindbody')).toHaveCount(0);
});

test('a gym whose site has not activated Grove: the site ID first, the activation link and code, "Check again" once the owner opened it, then the staff login and the import', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  // The sandbox's site -98 has not activated Grove's developer account.
  const site = '-98';
  await signUp(page);
  await page.getByRole('link', { name: 'Mindbody Setup' }).click();
  await page.getByLabel('Site ID').fill(site);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(
    page.getByRole('heading', { name: `Give Grove access to site ${site}` }),
  ).toBeVisible();
  await expect(page.getByText(MESSAGES.mindbodyActivationHelp)).toBeVisible();
  const link = page.getByRole('link', { name: 'Open the activation link' });
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toContain(`/_sandbox/sites/${site}/activation?code=`);
  const code = new URL(href).searchParams.get('code') ?? '';
  await expect(page.getByText(code, { exact: true })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({
      path: test.info().outputPath(`activation-${width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  // Not activated yet: "Check again" says so and stays.
  await page.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByText(`Site ${site} has not activated Grove yet.`)).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveCount(0);

  // The owner opens the link (in a new tab, signed in to Mindbody as the site owner)…
  const [mindbody] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await mindbody.waitForLoadState();
  await expect(mindbody.getByText(`Site ${site} now shares its data with Grove.`)).toBeVisible();
  await mindbody.close();

  // …comes back and checks again: the staff login of that site.
  await page.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByText(`Site ${site}`, { exact: false }).first()).toBeVisible();
  await page.getByLabel('Username').fill(SANDBOX.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials provided');
  await page.getByLabel('Password').fill(SANDBOX.password);
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();

  await expect(page.getByRole('heading', { name: 'Import your members' })).toBeVisible();
  await page.getByRole('button', { name: 'Import members' }).click();
  await expect(page.getByRole('heading', { name: 'Set your referral discounts' })).toBeVisible({
    timeout: 40_000,
  });
  await expect(page.getByText(/Members imported: 25 clients read/)).toBeVisible();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({
      path: test.info().outputPath(`activated-imported-${width}.png`),
      fullPage: true,
    });
  }

  // Leaves the sandbox as it found it (a rerun on the same server starts not activated).
  await page.request.post(new URL(`/_sandbox/sites/${site}/deactivate`, href).toString());
});
