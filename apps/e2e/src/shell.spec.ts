import { expect, test } from '@playwright/test';
import { signUp } from './support';

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
  await page.goto('/no-such-page');
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
