import { expect, test } from '@playwright/test';
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

  // Stage 1: every field required, a wrong password refused with SPEC's message.
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await expect(page.getByText('Invalid credentials provided').first()).toBeVisible();
  await page.getByLabel('Username').fill(SANDBOX.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByLabel('Site ID').fill(SANDBOX.siteId);
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
  await expect(page.getByLabel('Username')).toHaveValue('');

  await page.getByRole('link', { name: 'Branches' }).click();
  const kept = treeRow(page, memberName).first();
  await expect(kept).toBeVisible();
  await expect(kept.getByRole('button', { name: 'Add Branch' })).toBeVisible();
  await expect(page.getByText('Managed by Mindbody')).toHaveCount(0);
});
