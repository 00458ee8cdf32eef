import { expect, test, type Page } from '@playwright/test';
import {
  MESSAGES,
  type MemberRow,
  type MindbodySiteActivation,
  type MindbodyStatus,
  type Page as ListPage,
  type ProspectRow,
} from '@grove/contracts';
import { accessibilityViolations, MINDBODY_SANDBOX_SITE, signUp, treeRow } from './support';

// The server of the journeys runs a Mindbody sandbox (tools/scripts/start.mjs, 300 clients in the
// e2e configuration) with this staff login (apps/mindbody-sandbox defaults).
// A Mindbody site belongs to one business (issue 31): whatever a journey left, its business lets
// go of the site, so the next journey (or this one's retry) can connect it.
test.afterEach(async ({ page }) => {
  await page.request.delete('/api/mindbody').catch(() => undefined);
});

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
  await page.getByLabel('Site ID').fill(MINDBODY_SANDBOX_SITE.siteId);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await expect(page.getByText('Invalid credentials provided').first()).toBeVisible();
  await page.getByLabel('Username').fill(MINDBODY_SANDBOX_SITE.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials provided');
  await expect(page.getByRole('heading', { name: 'Connect your Mindbody account' })).toBeVisible();
  await page.getByLabel('Password').fill(MINDBODY_SANDBOX_SITE.password);
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

  // Stage 4: sync, after reviewing the bills it changes (issue 25: none yet, nobody has a
  // branch); the last sync time appears when it has finished.
  await page.getByRole('button', { name: 'Sync with mindbody' }).click();
  const review = page.getByRole('dialog', { name: 'Review the bills this sync changes' });
  await expect(review.getByText(/this sync changes no member’s bill/)).toBeVisible();
  await review.getByRole('button', { name: 'Confirm and sync' }).click();
  await expect(page.getByText(/Last sync: \d{1,2} \w{3} \d{4}/)).toBeVisible({ timeout: 40_000 });
  await expect(page.getByText('Last sync: no bill written.')).toBeVisible();
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
  await page.getByLabel('Username').fill(MINDBODY_SANDBOX_SITE.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials provided');
  await page.getByLabel('Password').fill(MINDBODY_SANDBOX_SITE.password);
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

/** Ticks of the wizard's stepper without spaces, e.g. ['✓Connect(done)', …, '4Sync']. */
async function steps(page: Page): Promise<string[]> {
  const texts = await page
    .getByRole('list', { name: 'Setup steps' })
    .getByRole('listitem')
    .allInnerTexts();
  return texts.map((text) => text.replace(/\s+/g, ''));
}

/**
 * 'Confirm and sync' in the sync review. When a sync Mindbody's webhook started has changed the
 * bills since the review opened, Grove refuses the stale confirmation and shows the bills again
 * (MESSAGES.mindbodySyncPreviewStale); the owner confirms the new review, as a person would.
 */
async function confirmSync(page: Page): Promise<void> {
  const review = page.getByRole('dialog', { name: 'Review the bills this sync changes' });
  const confirm = review.getByRole('button', { name: 'Confirm and sync' });
  await expect(async () => {
    if (await review.isVisible()) {
      await expect(confirm).toBeEnabled();
      await confirm.click();
    }
    await expect(review).toBeHidden({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

/** Waits until the business's Mindbody process is no longer running and stays so for 3 s. */
async function quiet(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const first = (await (await page.request.get('/api/mindbody')).json()) as MindbodyStatus;
        await page.waitForTimeout(3_000);
        const second = (await (await page.request.get('/api/mindbody')).json()) as MindbodyStatus;
        return first.processState !== 'running' && first.processState === second.processState;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

test('a sync preview lists the bills that will change: names and old → new prices, confirmed, then the count written; the stepper ticks Sync only after', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page);
  await page.getByRole('link', { name: 'Mindbody Setup' }).click();
  await page.getByLabel('Site ID').fill(MINDBODY_SANDBOX_SITE.siteId);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Username').fill(MINDBODY_SANDBOX_SITE.username);
  await page.getByLabel('Password').fill(MINDBODY_SANDBOX_SITE.password);
  await page.getByRole('button', { name: 'Connect Mindbody' }).click();
  await page.getByRole('button', { name: 'Import members' }).click();
  await expect(page.getByRole('heading', { name: 'Set your referral discounts' })).toBeVisible({
    timeout: 40_000,
  });
  await page.getByLabel('Discount on referral ($)').fill('10');
  await page.getByLabel('Discount for referee ($)').fill('5');
  await page.getByRole('button', { name: 'Save discounts and finish' }).click();
  await expect(page.getByText('Last sync: not yet')).toBeVisible();
  // No sync has run: the stepper does not tick it.
  expect(await steps(page)).toEqual([
    '✓Connect(done)',
    '✓Importmembers(done)',
    '✓Discounts(done)',
    '4Sync',
  ]);

  // A member's friend joins through her Grove link, the owner approves her, the front desk
  // creates her in Mindbody (the sandbox's control API; its origin is in the activation link).
  let referrer: MemberRow | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (
          await page.request.get('/api/members?managed=mindbody&pageSize=100')
        ).json()) as ListPage<MemberRow>;
        referrer = list.items.find(
          (row) =>
            row.mindbodyNextCharge && row.status === 'Active' && row.membershipPriceCents >= 3_000,
        );
        return referrer !== undefined;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  const price = referrer?.membershipPriceCents ?? 0;
  const dollars = (cents: number) => `\\$${(cents / 100).toFixed(2)}`;
  /** A bill line's text, old → new (the line also reads 'from … to …' to a screen reader). */
  const oldToNew = (from: number, to: number) =>
    new RegExp(`${dollars(from)}\\s*→\\s*(to )?${dollars(to)}`);
  const link = (await (
    await page.request.post(`/api/members/${referrer?.id}/referral-link`, { data: {} })
  ).json()) as { code: string };
  const friend = { name: 'Siobhán O’Brien', email: `siobhan.${Date.now()}@example.com` };
  expect(
    (await page.request.post(`/api/referrals/${link.code}/join`, { data: friend })).status(),
  ).toBe(201);
  const prospects = (await (
    await page.request.get('/api/prospects?pageSize=100')
  ).json()) as ListPage<ProspectRow>;
  const prospect = prospects.items.find((row) => row.name === friend.name);
  expect(
    (
      await page.request.post(`/api/prospects/${prospect?.id}/approve`, {
        data: {
          memberName: friend.name,
          memberEmail: friend.email,
          membershipPriceCents: 6000,
          discountCents: 0,
        },
      })
    ).ok(),
  ).toBe(true);
  const activation = (await (
    await page.request.get('/api/mindbody/activation?siteId=-98')
  ).json()) as MindbodySiteActivation;
  const sandboxOrigin = new URL(activation.activationLink ?? '').origin;
  expect(
    (
      await page.request.post(`${sandboxOrigin}/_sandbox/clients`, {
        data: {
          FirstName: 'Siobhán',
          LastName: 'O’Brien',
          Email: friend.email,
          NormalAutoPay: 60,
          ReferredBy: 'Friend',
        },
      })
    ).ok(),
  ).toBe(true);

  // The owner syncs: the review says the friend waits for her Mindbody client; confirmed, the sync
  // finds her and writes her bill and her referrer's (Mindbody's webhook may have queued it too).
  await page.reload();
  await page.getByRole('button', { name: 'Sync with mindbody' }).click();
  const review = page.getByRole('dialog', { name: 'Review the bills this sync changes' });
  await confirmSync(page);
  await expect(page.getByText(/Last sync: \d{1,2} \w{3} \d{4}/)).toBeVisible({ timeout: 60_000 });
  await quiet(page);
  await page.reload();
  await expect(page.getByText(/Last sync: (1 bill|2 bills|no bill) written\./)).toBeVisible();
  expect((await steps(page)).at(-1)).toBe('✓Sync(done)');

  // The owner raises the discount on referral: the review lists the referrer's bill, old → new.
  await page.getByLabel('Discount on referral ($)').fill('12');
  await page.getByRole('button', { name: /Save discounts/ }).click();
  await expect(page.getByLabel('Discount on referral ($)')).toHaveValue('12.00');
  await page.getByRole('button', { name: 'Sync with mindbody' }).click();
  const bills = review.getByRole('list', { name: 'Bills this sync changes' });
  const line = bills.getByRole('listitem').filter({ hasText: referrer?.memberName ?? '' });
  await expect(line).toContainText(oldToNew(price - 1_000, price - 1_200));
  await expect(line).toContainText('(−$2.00)');
  await expect(review).toContainText(
    'This sync will change 1 member’s bill in Mindbody: $2.00 less a month in total.',
  );
  expect(await accessibilityViolations(page)).toEqual([]);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await page.screenshot({ path: test.info().outputPath(`sync-review-${width}.png`) });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await confirmSync(page);
  await expect(page.getByText('Last sync: 1 bill written.')).toBeVisible({ timeout: 60_000 });
  expect((await steps(page)).at(-1)).toBe('✓Sync(done)');

  // 'Remove integration' says which bills get their own amount back.
  await page.getByRole('button', { name: 'Remove integration' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove the Mindbody integration?' });
  const back = removal.getByRole('list', { name: 'Bills that get their own amount back' });
  await expect(
    back.getByRole('listitem').filter({ hasText: referrer?.memberName ?? '' }),
  ).toContainText(oldToNew(price - 1_200, price));
  await expect(back.getByRole('listitem').filter({ hasText: friend.name })).toContainText(
    oldToNew(5_500, 6_000),
  );
  await expect(removal).toContainText(
    'Grove will put 2 members’ bills in Mindbody back to their own amount: $17.00 more a month in total.',
  );
  await page.screenshot({ path: test.info().outputPath('remove-review-1366.png') });
  await removal.getByRole('button', { name: 'Remove integration' }).click();
  await expect(
    page.getByText('2 autopays are back at their own amounts in Mindbody.', { exact: false }),
  ).toBeVisible();
});
