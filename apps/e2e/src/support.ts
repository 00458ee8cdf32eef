import { expect, type Page } from '@playwright/test';

/** A unique, valid owner for one test. */
export function newOwner() {
  const id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return {
    businessName: 'Riverside Strength',
    firstName: 'Jordan',
    lastName: 'Avery',
    email: `owner${id}@riverside.example`,
    phoneNumber: '0412 345 678',
    website: 'riverside.example.com',
    password: 'a long enough password',
  };
}

/** Signs a new owner up through the signup page and waits for the dashboard. */
export async function signUp(page: Page, owner = newOwner()) {
  await page.goto('/signup');
  await page.getByLabel('Business name').fill(owner.businessName);
  await page.getByLabel('First name').fill(owner.firstName);
  await page.getByLabel('Last name').fill(owner.lastName);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Phone number').fill(owner.phoneNumber);
  await page.getByLabel('Website').fill(owner.website);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return owner;
}
