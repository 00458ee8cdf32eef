import { expect, type Page } from '@playwright/test';
import type { MemberRow } from '@grove/contracts';
import { signUp, test } from './support';

/** Adds a tree (or a branch of `referringMemberId`) through the API, as the signed-in owner; amounts in cents. */
async function addMember(
  page: Page,
  name: string,
  price: number,
  discount: number,
  referringMemberId?: string,
): Promise<MemberRow> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@list.example`;
  const reply = await page.request.post('/api/members', {
    data: {
      memberName: name,
      memberEmail: email,
      membershipPriceCents: price,
      discountCents: discount,
      referringMemberId,
    },
  });
  expect(reply.status()).toBe(201);
  return (await reply.json()) as MemberRow;
}

test('Branches for a real gym: sorted by price, filtered to one referrer’s branches and by status, on a desktop and a phone', async ({
  page,
}) => {
  await signUp(page);
  const olivia = await addMember(page, 'Olivia Bennett', 8900, 1000);
  await addMember(page, 'Jack Thompson', 6900, 800, olivia.id);
  await addMember(page, 'Mia Kelly', 4900, 500, olivia.id);
  await addMember(page, 'William Harris', 11_900, 1500);
  await page.reload();

  const rows = page.getByTestId('tree-row');
  const table = page.getByRole('table', { name: 'Your trees and their branches' });
  await expect(rows).toHaveCount(4);

  // Cheapest first: Mia $49, Jack $69, Olivia $89 − 2 × $10 = $69, William $119.
  await page.getByLabel('Sort', { exact: true }).selectOption({ label: 'Lowest price' });
  await expect(page).toHaveURL(/sort=newPriceCents&order=asc/);
  await expect(rows.first()).toContainText('Mia Kelly');
  await expect(rows.last()).toContainText('William Harris');

  // The Referred by column names the referrer and filters to its branches.
  const miaRow = rows.filter({ hasText: 'Mia Kelly' });
  await miaRow.getByRole('button', { name: 'Olivia Bennett' }).click();
  await expect(page).toHaveURL(new RegExp(`referredBy=${olivia.id}`));
  await expect(rows).toHaveCount(2);
  await expect(table).not.toContainText('William Harris');
  await expect(page.getByText('Branches of Olivia Bennett')).toBeVisible();
  await page
    .getByRole('button', { name: /Show every tree, not only the branches of Olivia Bennett/ })
    .click();
  await expect(rows).toHaveCount(4);

  // No member is pending: the filter says so and offers the way back.
  await page.getByLabel('Status', { exact: true }).selectOption('Pending');
  await expect(page.getByText('No trees match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Show every tree' }).click();
  await expect(rows).toHaveCount(4);

  // A reload keeps the view (the URL holds it); rows per page too.
  await page.getByLabel('Rows', { exact: true }).selectOption({ label: '50 per page' });
  await expect(page).toHaveURL(/pageSize=50/);
  await page.reload();
  await expect(page.getByLabel('Rows', { exact: true })).toHaveValue('50');
  await expect(page.getByLabel('Sort', { exact: true })).toHaveValue(/\d/);

  // Trees with their branches nested (issue 25): Olivia's branches sit under her, within the page.
  await page.getByRole('checkbox', { name: 'Show branches under their trees' }).check();
  await expect(page).toHaveURL(/view=nested/);
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('Olivia Bennett');
  await expect(rows.nth(0)).toHaveAttribute('data-level', '0');
  for (const [index, name] of [
    [1, 'Mia Kelly'],
    [2, 'Jack Thompson'],
  ] as const) {
    await expect(rows.nth(index)).toContainText(name);
    await expect(rows.nth(index)).toHaveAttribute('data-level', '1');
    await expect(rows.nth(index)).toContainText('Branch of Olivia Bennett');
  }
  await expect(rows.nth(3)).toContainText('William Harris');
  await page.reload();
  await expect(
    page.getByRole('checkbox', { name: 'Show branches under their trees' }),
  ).toBeChecked();

  // On a phone every tree is a compact card with its facts side by side (here nested: a branch's
  // card is inset under its tree's, still without sideways scrolling).
  await page.setViewportSize({ width: 390, height: 844 });
  const card = rows.first();
  const height = (await card.boundingBox())?.height ?? 0;
  expect(height).toBeGreaterThan(0);
  expect(height).toBeLessThan(260);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
