import { expect } from '@playwright/test';
import {
  invitationLink,
  inviteStaff,
  journeySmtp,
  newOwner,
  signUp,
  test,
  virtualAuthenticator,
  watchForProblems,
} from './support';

const smtp = journeySmtp();

/**
 * An invitation accepted with a passkey instead of a first password (issue 34 item 1,
 * docs/product.md#staff-accounts), in real Chromium with its virtual authenticator: the owner
 * invites a front-desk member of staff; on the link's page the invitee types their name, chooses
 * 'Use a passkey', names it, and the browser's passkey prompt adds it to the new account in the
 * same step; the recovery codes are shown once, then the dashboard opens, and the passkey signs
 * the person in with no password. Security then offers 'Set a password' (her passkey confirms it),
 * after which the password signs her in with the passkey as the second step. (The link's single use, and the refusals, are in
 * team.integration-spec.ts: the invitation routes share the per-address 'password-reset' budget,
 * 5 a minute, with the other invitation and password-reset journeys, so this one makes 3 calls.)
 */
test('an invitee joins with a passkey instead of a password, then signs in with it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await signUp(page, {
    ...newOwner(),
    firstName: 'Siobhán',
    lastName: "O'Brien",
    businessName: 'Ana-Sofía’s Rowing Club',
  });
  const email = `zoe.passkey.${Date.now()}@example.com`;
  await inviteStaff(page, email, 'front_desk');
  const link = await invitationLink(smtp, email, owner);

  const deskContext = await browser.newContext();
  const desk = await deskContext.newPage();
  const problems = watchForProblems(desk);
  const { cdp, authenticatorId } = await virtualAuthenticator(desk);
  await desk.goto(link);
  await expect(desk.getByText(/invited to Ana-Sofía’s Rowing Club as Front desk/)).toBeVisible();
  await desk.getByLabel('First name').fill('Zoë');
  await desk.getByLabel('Last name').fill("D'Arcy-Nguyễn");
  await desk.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(desk.getByLabel('Password')).toHaveCount(0);
  await expect(desk.getByLabel('First name')).toHaveValue('Zoë');
  await desk.getByLabel('Passkey name').fill('Front desk iPad');
  for (const width of [1366, 390]) {
    await desk.setViewportSize({ width, height: 900 });
    await desk.screenshot({ path: test.info().outputPath(`invitation-passkey-${width}.png`) });
  }
  await desk.setViewportSize({ width: 1366, height: 900 });

  await desk.getByRole('button', { name: 'Join with a passkey' }).click();
  await expect(desk.getByText('You joined with your passkey.')).toBeVisible();
  await expect(
    desk.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'),
  ).toHaveCount(10);
  for (const width of [1366, 390]) {
    await desk.setViewportSize({ width, height: 900 });
    await desk.screenshot({ path: test.info().outputPath(`invitation-codes-${width}.png`) });
  }
  await desk.setViewportSize({ width: 1366, height: 900 });
  await desk.getByRole('button', { name: 'I have saved them' }).click();
  await expect(desk).toHaveURL(/\/dashboard$/);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  await desk.goto('/dashboard/account-settings/security');
  await expect(
    desk.getByRole('list', { name: 'Your passkeys' }).getByText('Front desk iPad'),
  ).toBeVisible();

  // Signed out, the passkey alone signs Zoë in.
  await deskContext.clearCookies();
  await desk.goto('/login');
  await desk.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(desk).toHaveURL(/\/dashboard$/);

  // She has no password she knows: Security offers 'Set a password', her passkey confirms it.
  await desk.goto('/dashboard/account-settings/security');
  const setPassword = desk.getByRole('form', { name: 'Set a password' });
  await expect(setPassword).toBeVisible();
  await expect(desk.getByRole('heading', { name: 'Change password' })).toHaveCount(0);
  // Her one passkey stays until she has a password: no 'Remove', the card says why.
  await expect(desk.getByText('Set a password before removing your last passkey.')).toBeVisible();
  await expect(desk.getByRole('button', { name: 'Remove Front desk iPad' })).toHaveCount(0);
  const password = 'Zoë’s front desk passphrase';
  await setPassword.getByLabel('New password', { exact: true }).fill(password);
  await setPassword.getByLabel('Confirm new password').fill(password);
  for (const width of [1366, 390]) {
    await desk.setViewportSize({ width, height: 900 });
    await desk.screenshot({
      path: test.info().outputPath(`set-password-${width}.png`),
      fullPage: true,
    });
  }
  await desk.setViewportSize({ width: 1366, height: 900 });
  await setPassword.getByRole('button', { name: 'Set a password' }).click();
  await expect(desk.getByText('Your password has been set')).toBeVisible();
  await desk.reload();
  await expect(desk.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await expect(desk.getByRole('button', { name: 'Remove Front desk iPad' })).toBeVisible();

  // The password now signs her in, her passkey as the second step.
  await deskContext.clearCookies();
  await desk.goto('/login');
  await desk.getByLabel('Email').fill(email);
  await desk.getByLabel('Password').fill(password);
  await desk.getByRole('button', { name: 'Log in' }).click();
  await expect(desk.getByRole('heading', { name: 'Use your passkey' })).toBeVisible();
  await desk.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(desk).toHaveURL(/\/dashboard$/);
  expect(problems, 'console errors, failed requests or error replies').toEqual([]);
  await deskContext.close();

  // The owner's Team lists her as front desk.
  await page.goto('/dashboard/account-settings/team');
  await expect(page.getByText(email)).toBeVisible();
});
