import { expect } from '@playwright/test';
import { logIn, signUp, test, treeRow } from './support';

test('an owner signs up, grows a tree with a branch, prunes it and logs out', async ({ page }) => {
  const owner = await signUp(page);
  await expect(page.getByRole('heading', { name: 'Branches' })).toBeVisible();
  await expect(page.getByText('View and manage your trees and their branches.')).toBeVisible();
  await expect(
    page.getByText('Add your first tree and start growing your business!'),
  ).toBeVisible();
  await expect(
    page.getByRole('button', { name: `${owner.firstName} ${owner.lastName}` }),
  ).toBeVisible();

  // Add a tree: $100.00 membership, $15.00 off per referral.
  await page.getByRole('button', { name: 'Add New Tree' }).click();
  const startGrowing = page.getByRole('dialog', { name: 'Start Growing' });
  await startGrowing.getByRole('button', { name: 'Save' }).click();
  await expect(startGrowing.getByText('Not a valid name')).toBeVisible();
  await expect(startGrowing.getByText('Not a valid email address')).toBeVisible();
  await startGrowing.getByLabel('Member name').fill('Maya Patel');
  await startGrowing.getByLabel('Email').fill('maya.patel@example.com');
  await startGrowing.getByLabel('Current Membership ($)').fill('100');
  await startGrowing.getByLabel('Discount Per Referral ($)').fill('15.5.5');
  await startGrowing.getByRole('button', { name: 'Save' }).click();
  await expect(startGrowing.getByText('Not a valid discount price')).toBeVisible();
  await startGrowing.getByLabel('Discount Per Referral ($)').fill('15.50');
  await startGrowing.getByRole('button', { name: 'Save' }).click();
  await expect(startGrowing).toBeHidden();

  const maya = treeRow(page, 'Maya Patel');
  await expect(maya).toContainText('$100.00');
  await expect(maya.getByRole('cell').nth(1)).toHaveText('0');
  await expect(maya).toContainText('Active');

  // Add a branch: the member's price drops by the discount and the branch becomes a tree.
  await maya.getByRole('button', { name: 'Add Branch' }).click();
  const addBranch = page.getByRole('dialog', { name: 'Add a New Branch to Maya Patel' });
  await expect(addBranch.getByText('No branches yet')).toBeVisible();
  await addBranch.getByLabel('Member name').fill('Leo Chen');
  await addBranch.getByLabel('Email').fill('leo.chen@example.com');
  await addBranch.getByLabel('Current Membership ($)').fill('80');
  await addBranch.getByLabel('Discount Per Referral ($)').fill('10');
  await addBranch.getByRole('button', { name: 'Save' }).click();
  await expect(addBranch).toBeHidden();

  await expect(maya.getByRole('cell').nth(1)).toHaveText('1');
  await expect(maya).toContainText('$84.50');
  await expect(maya).toContainText('was $100.00');
  const leo = treeRow(page, 'Leo Chen');
  await expect(leo).toContainText('$80.00');

  // Remove the branch: the count and the price go back.
  await maya.getByRole('button', { name: 'Add Branch' }).click();
  await expect(addBranch.getByText('leo.chen@example.com')).toBeVisible();
  await addBranch.getByRole('button', { name: 'Remove branch Leo Chen' }).click();
  // It asks first, in the row (issue 25).
  await expect(
    addBranch.getByText('Remove Leo Chen as Maya Patel’s branch? Maya Patel’s price goes back up.'),
  ).toBeVisible();
  await addBranch.getByRole('button', { name: 'Remove branch', exact: true }).click();
  await expect(addBranch.getByText('No branches yet')).toBeVisible();
  await addBranch.getByRole('button', { name: 'Close' }).click();
  await expect(maya.getByRole('cell').nth(1)).toHaveText('0');
  await expect(maya).toContainText('$100.00');

  // Remove the tree.
  await maya.getByRole('button', { name: 'Remove Tree' }).click();
  await page
    .getByRole('dialog', { name: 'Remove Maya Patel?' })
    .getByRole('button', { name: 'Remove Tree' })
    .click();
  await expect(treeRow(page, 'Maya Patel')).toHaveCount(0);
  await expect(leo).toBeVisible();

  // Log out: the session really ends.
  await page.getByRole('button', { name: `${owner.firstName} ${owner.lastName}` }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('the search box filters the trees table', async ({ page }) => {
  await page.goto('/login');
  await logIn(page, 'demo@grove.local', 'grove-demo-1234');
  const rows = page.getByTestId('tree-row');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(12);
  const first = (await rows.first().locator('.dash-member').textContent()) ?? '';
  await page.getByRole('searchbox', { name: 'Search members' }).fill(first);
  await expect(page).toHaveURL(/search=/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(first);
});

test('login shows SPEC messages and clears the error after 3 seconds', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please add to email and password fields');
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password or username does not match any user');
  await expect(page.getByLabel('Password')).toHaveValue('');
  await expect(page.getByRole('alert')).toBeHidden({ timeout: 5_000 });
});
