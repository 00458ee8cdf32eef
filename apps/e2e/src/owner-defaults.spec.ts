import { expect } from '@playwright/test';
import { autoLinksOff, signUp, test, treeRow } from './support';

/**
 * Defaults instead of retyping (issue 25, "An owner's ordinary day", Build 4;
 * docs/product.md#member-defaults, docs/product.md#getting-started).
 */
test("approval prefilled with the referrer's price and discount", async ({ page, browser }) => {
  await signUp(page);
  const created = await page.request.post('/api/members', {
    data: {
      memberName: "Siobhán O'Brien",
      memberEmail: 'siobhan.obrien@example.ie',
      membershipPriceCents: 8900,
      discountCents: 1500,
    },
  });
  expect(created.status()).toBe(201);
  const siobhan = (await created.json()) as { id: string };
  const link = await page.request.post(`/api/members/${siobhan.id}/referral-link`);
  expect(link.status()).toBe(201);
  const { code } = (await link.json()) as { code: string };

  // A friend joins through Siobhán's link on another device.
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(`/referral/${code}`);
  await friend.getByLabel('Name').fill('Anne-Marie Dubois');
  await friend.getByLabel('Email').fill('anne-marie.dubois@example.fr');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friendContext.close();

  // The owner opens the approval: Siobhán's $89.00 and $15.00 are in the fields, not placeholders.
  await page.goto('/dashboard/prospective-members');
  await page
    .getByTestId('prospect-row')
    .filter({ hasText: 'Anne-Marie Dubois' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const form = page.getByRole('dialog', { name: "Add a New Branch to Siobhán O'Brien" });
  await expect(form.getByLabel('Member name')).toHaveValue('Anne-Marie Dubois');
  await expect(form.getByLabel('Current Membership ($)')).toHaveValue('89.00');
  await expect(form.getByLabel('Discount Per Referral ($)')).toHaveValue('15.00');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  // The new tree has those values; Siobhán now pays $74.00.
  await page.goto('/dashboard');
  const anneMarie = treeRow(page, 'Anne-Marie Dubois');
  await expect(anneMarie.locator('[data-label="Membership"]')).toContainText('$89.00');
  await expect(anneMarie.locator('[data-label="Discount"]')).toHaveText('$15.00');
  await expect(treeRow(page, "Siobhán O'Brien")).toContainText('$74.00');
});

test('the getting-started checklist shows, ticks from real data and goes away', async ({
  page,
}) => {
  await signUp(page);
  // Links by hand, so each step ticks on its own: with automatic links (on for new businesses)
  // the first tree's link would tick 'Share referral links' together with 'Add or import members'.
  await autoLinksOff(page);
  await page.goto('/dashboard');
  const checklist = page.getByRole('region', { name: 'Getting started' });
  await expect(checklist).toBeVisible();
  await expect(checklist).toContainText('0 of 4 done');

  // 'Set your discount' leads to Account Settings' defaults.
  await checklist.getByRole('link', { name: 'Set your discount' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account-settings\/members#member-defaults$/);
  const defaults = page.getByRole('region', { name: 'Defaults for new members' });
  await defaults.getByLabel('Discount Per Referral ($)').fill('12.50');
  await defaults.getByRole('button', { name: 'Save defaults' }).click();
  await expect(defaults.getByText('Saved')).toBeVisible();

  await page.goto('/dashboard');
  await expect(checklist).toContainText('1 of 4 done');
  await expect(page.getByTestId('getting-started-discount')).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('getting-started-members')).toHaveAttribute('data-done', 'false');

  // The add-tree form starts from the default discount; adding a tree ticks 'Add or import members'.
  await page.getByRole('button', { name: 'Add New Tree' }).click();
  const form = page.getByRole('dialog', { name: 'Start Growing' });
  await expect(form.getByLabel('Discount Per Referral ($)')).toHaveValue('12.50');
  await form.getByLabel('Member name').fill('Ciarán Walsh');
  await form.getByLabel('Email').fill('ciaran.walsh@example.ie');
  await form.getByLabel('Current Membership ($)').fill('75');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(checklist).toContainText('2 of 4 done');
  await expect(page.getByTestId('getting-started-members')).toHaveAttribute('data-done', 'true');
  await expect(treeRow(page, 'Ciarán Walsh').locator('[data-label="Discount"]')).toHaveText(
    '$12.50',
  );

  // Where the members are billed: Mindbody or Stripe, each to its own wizard (issue 32).
  await expect(page.getByTestId('getting-started-billing')).toContainText(
    'Connect Mindbody or Stripe',
  );
  await expect(checklist.getByRole('link', { name: 'Connect Mindbody' })).toHaveAttribute(
    'href',
    '/mindbody-setup',
  );
  await checklist.getByRole('link', { name: 'Connect Stripe' }).click();
  await expect(page).toHaveURL(/\/stripe-setup$/);
  await page.goto('/dashboard');
  await expect(checklist).toContainText('2 of 4 done');

  // Hidden for good: it stays away after a reload.
  await checklist.getByRole('button', { name: 'Hide checklist' }).click();
  await expect(checklist).toBeHidden();
  await page.reload();
  await expect(treeRow(page, 'Ciarán Walsh')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Getting started' })).toHaveCount(0);
});
