import { expect } from '@playwright/test';
import { newOwner, signUp, test, virtualAuthenticator } from './support';

/**
 * Passkeys (issue 34 item 3, docs/product.md#passkeys) in real Chromium with its virtual
 * authenticator (CDP `WebAuthn.enable` + `WebAuthn.addVirtualAuthenticator`: a platform
 * authenticator with resident keys and user verification, which answers at once): an owner adds
 * a named passkey in Account Settings' Security card (its recovery codes shown once), signs out,
 * and signs in with 'Sign in with a passkey' and no password; then, signing in with the password,
 * the passkey answers the second step. Removing it asks for the password (or a code) first.
 */
test('an owner adds a passkey in Security, then signs in with it without a password, and as the step after the password', async ({
  page,
}) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);

  const owner = await signUp(page, {
    ...newOwner(),
    firstName: 'Zoë',
    lastName: "D'Arcy-Nguyễn",
    businessName: 'Ana-Sofía’s Climbing Wall',
  });
  await page.goto('/dashboard/account-settings/security');
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
  // A name is asked for first.
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(
    page.getByText('Give this passkey a name, such as the device it is on'),
  ).toBeVisible();
  await page.getByLabel('Passkey name').fill('Zoë’s laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Your passkey is added.')).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'),
  ).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('Zoë’s laptop')).toBeVisible();
  await expect(list.getByText(/not used yet/)).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);

  // Signed out: 'Sign in with a passkey' needs no email or password.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/account-settings/security');
  await expect(list.getByText(/last used/)).toBeVisible();

  // With the password, the passkey is the second step.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Use your passkey' })).toBeVisible();
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Removing it needs a proof, as turning off the app does: the session alone removes nothing.
  await page.goto('/dashboard/account-settings/security');
  await page.getByRole('button', { name: 'Remove Zoë’s laptop' }).click();
  const proof = page.getByLabel(
    'To remove this passkey, enter a code, a recovery code or your password',
  );
  await proof.fill('not my password at all');
  await page.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(page.getByText('That code or password is not correct.')).toBeVisible();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await proof.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`passkey-remove-${width}.png`) });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.reload();
  await expect(list.getByText('Zoë’s laptop')).toBeVisible();
  await page.getByRole('button', { name: 'Remove Zoë’s laptop' }).click();
  await proof.fill(owner.password);
  await page.getByRole('button', { name: 'Remove passkey' }).click();
  // Removed, it no longer signs in (the authenticator still holds it: the API refuses it).
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(
    page.getByText('This passkey could not sign you in. Try again, or use your password.'),
  ).toBeVisible();
});
