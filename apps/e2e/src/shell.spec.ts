import { expect, test } from '@playwright/test';
import { accessibilityViolations, signUp } from './support';

test('with the dashboard remote unreachable, the site works and the dashboard shows a fallback', async ({
  page,
}) => {
  await page.route('**/remotes/dashboard/**', (route) => route.abort('connectionrefused'));

  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Try Grove for free' })).toBeVisible();
  await expect(page.getByText('6+')).toBeVisible();

  await signUp(page);
  await expect(page.getByRole('alert')).toContainText(
    'This part of Grove is not available right now.',
  );
  await expect(
    page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Referral Links' }),
  ).toBeVisible();

  // Once the remote is back, "Try again" loads it without a page reload.
  await page.unroute('**/remotes/dashboard/**');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('View and manage your trees and their branches.')).toBeVisible();
});

test('unknown paths show the 404 page and Go Back returns', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Simple & Transparent Pricing' })).toBeVisible();
  const reply = await page.goto('/no-such-page');
  expect(reply?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'OOPS.. PAGE NOT FOUND!' })).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});

test('signed-out visitors are sent from dashboard routes to /login', async ({ page }) => {
  for (const path of [
    '/dashboard',
    '/dashboard/prospective-members',
    '/referral-links',
    '/mindbody-setup',
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
});

test('signup checks its fields in SPEC order', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
  await page.getByLabel('Business name').fill('Gym');
  await page.getByLabel('First name').fill('J0rdan');
  await page.getByLabel('Last name').fill('Avery');
  await page.getByLabel('Email').fill('jordan@example.com');
  await page.getByLabel('Phone number').fill('0412 345 678');
  await page.getByLabel('Website').fill('example.com');
  await page.getByLabel('Password').fill('long enough pw');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid Name');
});

test('at 390 px the signed-in frame fits the screen, its menu opens the sidebar, and axe finds nothing to fix', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const owner = await signUp(page);
  await expect(page.getByRole('heading', { name: 'Branches' })).toBeVisible();
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  // The account button keeps the owner's name for screen readers when only the avatar shows.
  const account = page.getByRole('button', { name: `${owner.firstName} ${owner.lastName}` });
  await expect(account).toBeVisible();

  // The sidebar opens from the top bar's menu button, one link a line, without sideways scrolling.
  const sidebar = page.getByRole('navigation', { name: 'Dashboard' });
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(sidebar).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(sidebar.getByRole('link', { name: 'Mindbody Setup' })).toBeInViewport();
  await expect(sidebar.getByRole('button', { name: 'Contact Support' })).toBeInViewport();
  expect(await fits()).toBe(true);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('signed-in-390-menu.png'), fullPage: true });

  // A link takes the owner there and closes the sidebar.
  await sidebar.getByRole('link', { name: 'Referral Links' }).click();
  await expect(page).toHaveURL(/\/referral-links$/);
  await expect(sidebar).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await account.click();
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  expect(await fits()).toBe(true);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('signed-in-390.png'), fullPage: true });

  // On a desktop the sidebar is always there and the menu button is not.
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1366, height: 900 });
  await expect(sidebar).toBeVisible();
  await expect(menu).toBeHidden();
  expect(await fits()).toBe(true);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('signed-in-1366.png'), fullPage: true });
});
