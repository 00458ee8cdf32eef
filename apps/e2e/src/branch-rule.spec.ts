import { expect } from '@playwright/test';
import { accessibilityViolations, addMember, signUp, test, treeRow } from './support';

test('under a 30-day rule a new branch shows as Pending and lowers no price yet, on a desktop and on a phone', async ({
  page,
}) => {
  await signUp(page);

  // Account Settings: 'When a branch counts' → after 30 days as a member.
  await page.goto('/dashboard/account-settings/members');
  await expect(page.getByRole('heading', { name: 'When a branch counts' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /When I approve them/ })).toBeChecked();
  await page.getByRole('radio', { name: /After some days as a member/ }).check();
  await page.getByRole('textbox', { name: 'Days as a member' }).fill('400');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(
    page.getByText('Days as a member must be a whole number from 1 to 365'),
  ).toBeVisible();
  await page.getByRole('textbox', { name: 'Days as a member' }).fill('30');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText('Saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radio', { name: /After some days as a member/ })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Days as a member' })).toHaveValue('30');
  expect(
    await accessibilityViolations(page, { include: '[aria-labelledby="branch-rule-title"]' }),
  ).toEqual([]);

  // Branches: a tree and a branch (added through the API as the forms would); the branch waits,
  // the tree's price stays.
  const mayaId = await addMember(page, {
    name: 'Maya Patel',
    email: 'maya.patel@example.com',
    price: '100',
    discount: '15',
  });
  await addMember(
    page,
    { name: 'Leo Chen', email: 'leo.chen@example.com', price: '80', discount: '10' },
    mayaId,
  );
  await page.goto('/dashboard');
  const maya = treeRow(page, 'Maya Patel');
  const addBranch = page.getByRole('dialog', { name: 'Add a New Branch to Maya Patel' });
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const leo = treeRow(page, 'Leo Chen');
    await expect(leo.getByText('Pending', { exact: true })).toBeVisible();
    await expect(maya.getByText('Active', { exact: true })).toBeVisible();
    await expect(maya.getByRole('cell').nth(1)).toHaveText('0');
    await expect(maya).toContainText('$100.00');
    await page.screenshot({
      path: test.info().outputPath(`branches-pending-${width}.png`),
      fullPage: true,
    });
  }
  await maya.getByRole('button', { name: 'Add Branch' }).click();
  await expect(addBranch.getByRole('listitem').filter({ hasText: 'Leo Chen' })).toContainText(
    'Pending',
  );
});
