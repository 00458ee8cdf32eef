import { expect, test, type Page } from '@playwright/test';
import { MESSAGES, type MemberRow, type Page as ListPage } from '@grove/contracts';
import { accessibilityViolations, connectMindbody, sandboxOrigin, signUp } from './support';

test.afterEach(async ({ page }) => {
  // A Mindbody site belongs to one business (issue 31): the journey's business lets go of it.
  await page.request.delete('/api/mindbody').catch(() => undefined);
  // The friend added here stays a client of the sandbox's site: reseed the site to the clients
  // the other Mindbody journeys count (mindbody.spec.ts reads 300).
  const reset = await page.request.post(`${await sandboxOrigin(page)}/_sandbox/reset`, {
    data: {},
  });
  expect(reset.status()).toBe(200);
});

/** Takes the screen at 1366 and 390 px (nothing wider than the phone), then back to 1366. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test("an owner picks the referral type, approves a friend with 'Add to Mindbody', and the friend is a client in Mindbody", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signUp(page);
  await connectMindbody(page);

  // The wizard: the referral type Grove gives the friends it adds, from the site's own list.
  await page.goto('/mindbody-setup');
  const referralType = page.getByLabel('Referral type for friends added to Mindbody');
  await expect(referralType).toHaveValue('');
  await referralType.selectOption('Friend');
  await page.getByRole('button', { name: 'Save referral type' }).click();
  await expect(page.getByText('Referral type saved.')).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  await shots(page, 'referral-type');

  // A friend of a Mindbody member joins through the member's link.
  const members = (await (
    await page.request.get('/api/members?managed=mindbody&pageSize=25')
  ).json()) as ListPage<MemberRow>;
  const referrer = members.items.find((row) => row.status === 'Active');
  expect(referrer, 'an active Mindbody member').toBeDefined();
  const link = (await (
    await page.request.post(`/api/members/${referrer?.id}/referral-link`, { data: {} })
  ).json()) as { code: string };
  const friend = {
    name: 'Zoë D’Arcy-Nguyễn',
    email: `zoe.darcy.${Date.now()}@example.com`,
  };
  expect(
    (await page.request.post(`/api/referrals/${link.code}/join`, { data: friend })).status(),
  ).toBe(201);

  // The owner approves her, ticking 'Add to Mindbody' (unticked until the owner chooses it).
  await page.goto('/dashboard/prospective-members');
  await page
    .getByTestId('prospect-row')
    .filter({ hasText: friend.name })
    .getByRole('button', { name: 'Approve' })
    .click();
  const dialog = page.getByRole('dialog', {
    name: `Add a New Branch to ${referrer?.memberName}`,
  });
  const option = dialog.getByRole('checkbox', { name: /Add to Mindbody/ });
  await expect(option).not.toBeChecked();
  await option.check();
  expect(await accessibilityViolations(page)).toEqual([]);
  await shots(page, 'approval-add-to-mindbody');
  await dialog.getByLabel('Discount Per Referral ($)').fill('0');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // Branches: she is added, then managed by Mindbody like an imported member.
  await page.goto(`/dashboard?search=${encodeURIComponent(friend.email)}`);
  const row = page.getByTestId('tree-row').filter({ hasText: friend.email });
  await expect(row.getByText(MESSAGES.managedByMindbody)).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText(MESSAGES.mindbodyAddPending)).toHaveCount(0);
  await shots(page, 'branches-added');

  // Mindbody has her as a client, once, with the owner's referral type.
  const { clients } = (await (
    await page.request.get(
      `${await sandboxOrigin(page)}/_sandbox/clients?email=${encodeURIComponent(friend.email)}`,
    )
  ).json()) as { clients: { FirstName: string; LastName: string; ReferredBy: string | null }[] };
  expect(clients).toEqual([
    expect.objectContaining({ FirstName: 'Zoë', LastName: 'D’Arcy-Nguyễn', ReferredBy: 'Friend' }),
  ]);
});
