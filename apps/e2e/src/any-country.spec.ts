import { expect } from '@playwright/test';
import { finishSignUp, newOwner, test } from './support';

const sizes = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

test('a US owner signs up with (415) 555-0134 in the United States (issue 25, docs/product.md#country)', async ({
  page,
}) => {
  const owner = {
    ...newOwner(),
    businessName: 'Mission Strength SF',
    website: 'missionstrength.com',
  };
  await page.goto('/signup');
  await page.getByLabel('Business name').fill(owner.businessName);
  await page.getByLabel('First name').fill(owner.firstName);
  await page.getByLabel('Last name').fill(owner.lastName);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Phone number').fill('(415) 555-0134');
  await page.getByLabel('Website').fill(owner.website);
  await page.getByLabel('Password').fill(owner.password);

  // Australia unless chosen: read as Australian, the US number is refused, and the hint says why.
  await expect(page.getByLabel('Country')).toHaveValue('AU');
  await expect(
    page.getByText('Australia (+61) numbers, or any number in international format.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Invalid Phone Number')).toBeVisible();

  await page.getByLabel('Country').selectOption({ label: 'United States' });
  await expect(
    page.getByText('United States (+1) numbers, or any number in international format.'),
  ).toBeVisible();
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: test.info().outputPath(`signup-us-${size.width}.png`),
      fullPage: true,
    });
  }
  await page.getByRole('button', { name: 'Create account' }).click();
  await finishSignUp(page, owner.email);

  // Account Settings keeps the country and the number as typed.
  await page.goto('/dashboard/account-settings');
  await expect(page.getByLabel('Country')).toHaveValue('US');
  await expect(page.getByLabel('Phone number')).toHaveValue('(415) 555-0134');
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.getByRole('heading', { name: 'Your details' }).scrollIntoViewIfNeeded();
    await page.screenshot({
      path: test.info().outputPath(`account-settings-us-${size.width}.png`),
      fullPage: true,
    });
  }
  // Another US number saves; an Australian one is refused until written internationally.
  await page.getByLabel('Phone number').fill('0412 345 678');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Invalid Phone Number')).toBeVisible();
  await page.getByLabel('Phone number').fill('+61 412 345 678');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Your details have been saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Phone number')).toHaveValue('+61 412 345 678');
  await expect(page.getByLabel('Country')).toHaveValue('US');

  // The contact form takes any valid number for the country the visitor chooses (the live form:
  // the app takes the prerendered page over on idle).
  await page.goto('/contact');
  await expect(page.locator('#grove-prerendered')).toHaveCount(0, { timeout: 20_000 });
  await page.getByLabel('Phone').fill('(415) 555-0134');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Not a valid phone number')).toBeVisible();
  await page.getByLabel('Country').selectOption('US');
  await expect(page.getByText('Not a valid phone number')).toHaveCount(0);
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: test.info().outputPath(`contact-us-${size.width}.png`),
      fullPage: true,
    });
  }
});
