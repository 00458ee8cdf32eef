import { expect } from '@playwright/test';
import { signUp, test, treeRow } from './support';

test("Siobhán O'Brien is added and Ben O'Connor joins (issue 25, docs/product.md#validation-names)", async ({
  page,
  browser,
}) => {
  await signUp(page);

  await page.getByRole('button', { name: 'Add New Tree' }).click();
  const startGrowing = page.getByRole('dialog', { name: 'Start Growing' });
  // Digits are still no name.
  await startGrowing.getByLabel('Member name').fill('Siobhán 0Brien');
  await startGrowing.getByLabel('Email').fill('siobhan.obrien@example.com');
  await startGrowing.getByLabel('Current Membership ($)').fill('90');
  await startGrowing.getByLabel('Discount Per Referral ($)').fill('10');
  await startGrowing.getByRole('button', { name: 'Save' }).click();
  await expect(startGrowing.getByText('Not a valid name')).toBeVisible();
  await startGrowing.getByLabel('Member name').fill("Siobhán O'Brien");
  await expect(startGrowing.getByText('Not a valid name')).toHaveCount(0);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: test.info().outputPath(`add-tree-name-${width}.png`) });
  }
  await startGrowing.getByRole('button', { name: 'Save' }).click();
  await expect(startGrowing).toBeHidden();
  const siobhan = treeRow(page, "Siobhán O'Brien");
  await expect(siobhan).toContainText('$90.00');

  // Her referral link; Ben O'Connor joins through it on a phone.
  const [{ id }] = (
    (await (await page.request.get('/api/members?search=siobhan.obrien')).json()) as {
      items: { id: string }[];
    }
  ).items;
  const link = await page.request.post(`/api/members/${id}/referral-link`);
  expect(link.status()).toBe(201);
  const { url } = (await link.json()) as { url: string };
  const friendContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const friend = await friendContext.newPage();
  await friend.goto(url);
  await expect(friend.getByRole('heading', { name: 'Siobhán invited you to join' })).toBeVisible();
  await friend.getByLabel('Name').fill("Ben O'Connor");
  await friend.getByLabel('Email').fill('ben.oconnor@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friend.screenshot({ path: test.info().outputPath('join-ben-390.png'), fullPage: true });
  await friendContext.close();

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/dashboard/prospective-members');
  await expect(page.getByRole('row').filter({ hasText: "Ben O'Connor" })).toContainText(
    'ben.oconnor@example.com',
  );
});
