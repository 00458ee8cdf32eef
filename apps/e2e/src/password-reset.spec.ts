import { expect } from '@playwright/test';
import { emailTo, journeySmtp, logIn, newOwner, signUp, test } from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

test('forgot password → email → reset → signed in, old sessions gone (issue 25, docs/product.md#forgot-password)', async ({
  page,
  browser,
}) => {
  const owner = await signUp(page);
  // A second browser signed in too.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await other.goto('/login');
  await logIn(other, owner.email, owner.password);

  // A third browser has forgotten the password: 'Forgot password?' on the login page.
  const forgetfulContext = await browser.newContext();
  const forgetful = await forgetfulContext.newPage();
  await forgetful.goto('/login');
  await forgetful.getByLabel('Email').fill(owner.email);
  for (const width of [1366, 390]) {
    await forgetful.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await forgetful.screenshot({ path: test.info().outputPath(`login-${width}.png`) });
  }
  await forgetful.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(forgetful).toHaveURL(/\/forgot-password$/);
  await expect(forgetful.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(forgetful.getByLabel('Email')).toHaveValue(owner.email);
  for (const width of [1366, 390]) {
    await forgetful.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await forgetful.screenshot({
      path: test.info().outputPath(`forgot-password-${width}.png`),
      fullPage: true,
    });
  }
  await forgetful.getByRole('button', { name: 'Send link' }).click();
  await expect(
    forgetful.getByText(
      'If an account uses this email, a link to choose a new password is on its way. Check your inbox.',
    ),
  ).toBeVisible();

  const mail = await emailTo(smtp, owner.email, 'Choose a new Grove password');
  const link = /(https?:\/\/\S+\/reset-password#token=[A-Za-z0-9_-]{43})/.exec(
    mail.text ?? '',
  )?.[1];
  expect(link, 'a reset link in the email').toBeDefined();

  await forgetful.goto(link ?? '');
  await expect(forgetful.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // The token leaves the address bar at once.
  await expect(forgetful).toHaveURL(/\/reset-password$/);
  await forgetful.getByLabel('New password', { exact: true }).fill('short');
  await forgetful.getByLabel('Confirm new password').fill('short');
  await forgetful.getByRole('button', { name: 'Save new password' }).click();
  await expect(forgetful.getByText('Password must be at least 12 characters')).toBeVisible();
  for (const width of [1366, 390]) {
    await forgetful.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await forgetful.screenshot({
      path: test.info().outputPath(`reset-password-${width}.png`),
      fullPage: true,
    });
  }
  await forgetful.getByLabel('New password', { exact: true }).fill('my brand new passphrase');
  await forgetful.getByLabel('Confirm new password').fill('my brand new passphrase');
  await forgetful.getByRole('button', { name: 'Save new password' }).click();
  // Signed in.
  await expect(forgetful).toHaveURL(/\/dashboard$/);
  await expect(forgetful.getByRole('heading', { name: 'Branches' })).toBeVisible();

  // Both browsers signed in before are signed out.
  for (const before of [page, other]) {
    await before.goto('/dashboard');
    await expect(before).toHaveURL(/\/login$/);
  }
  // The old password no longer works; the new one does.
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Password or username does not match any user')).toBeVisible();
  await logIn(page, owner.email, 'my brand new passphrase');
  await emailTo(smtp, owner.email, 'Your Grove password was changed');

  // The link works once.
  const reuseContext = await browser.newContext();
  const reuse = await reuseContext.newPage();
  await reuse.goto(link ?? '');
  await reuse.getByLabel('New password', { exact: true }).fill('yet another passphrase');
  await reuse.getByLabel('Confirm new password').fill('yet another passphrase');
  await reuse.getByRole('button', { name: 'Save new password' }).click();
  await expect(
    reuse.getByText('This link has expired or has already been used. Ask for a new one.'),
  ).toBeVisible();
  await expect(reuse.getByRole('link', { name: 'Send me a new link' })).toBeVisible();

  await Promise.all([otherContext.close(), forgetfulContext.close(), reuseContext.close()]);
});

test('a password changed in Security ends a reset link sent before it (issue 34 item 2)', async ({
  page,
  browser,
}) => {
  const owner = await signUp(page, { ...newOwner(), firstName: 'Siobhán', lastName: "O'Brien" });
  // Another browser asks for a reset link; the owner, still signed in here, changes the password.
  const askContext = await browser.newContext();
  const ask = await askContext.newPage();
  await ask.goto('/forgot-password');
  await ask.getByLabel('Email').fill(owner.email);
  await ask.getByRole('button', { name: 'Send link' }).click();
  const mail = await emailTo(smtp, owner.email, 'Choose a new Grove password');
  const link = /(https?:\/\/\S+\/reset-password#token=[A-Za-z0-9_-]{43})/.exec(
    mail.text ?? '',
  )?.[1];
  expect(link, 'a reset link in the email').toBeDefined();

  await page.goto('/dashboard/account-settings/security');
  const change = page.getByRole('form', { name: 'Change password' });
  await change.getByLabel('Current password').fill(owner.password);
  await change.getByLabel('New password', { exact: true }).fill('Siobhán’s harbour passphrase');
  await change.getByLabel('Confirm new password').fill('Siobhán’s harbour passphrase');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed')).toBeVisible();

  // The link from before the change no longer sets a password; the new one still signs in.
  await ask.goto(link ?? '');
  await ask.getByLabel('New password', { exact: true }).fill('a stranger’s passphrase');
  await ask.getByLabel('Confirm new password').fill('a stranger’s passphrase');
  await ask.getByRole('button', { name: 'Save new password' }).click();
  await expect(
    ask.getByText('This link has expired or has already been used. Ask for a new one.'),
  ).toBeVisible();
  await askContext.clearCookies();
  await ask.goto('/login');
  await logIn(ask, owner.email, 'Siobhán’s harbour passphrase');
  await askContext.close();
});

test('ten wrong passwords pause the account: the right one is refused too, the owner is emailed a link, and a new password lifts the pause (issue 34 item 3)', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The journeys' Grove lifts the per-address limit (THROTTLE_LOGIN_LIMIT), so what stops these
  // guesses is the account's own limit, as it stops guesses spread over many addresses
  // (10 addresses: password-reset.integration-spec.ts).
  const owner = await signUp(page, { ...newOwner(), firstName: 'Zoë', lastName: "D'Arcy-Nguyễn" });
  const guesserContext = await browser.newContext();
  const guesser = await guesserContext.newPage();
  await guesser.goto('/login');
  for (let guess = 1; guess <= 10; guess += 1) {
    await guesser.getByLabel('Email').fill(owner.email);
    await guesser.getByLabel('Password').fill(`wrong guess number ${guess}`);
    // Each guess answered before the next is typed (the SPEC message stays up to 3 seconds).
    const answered = guesser.waitForResponse(
      (reply) => reply.url().endsWith('/api/auth/login') && reply.request().method() === 'POST',
    );
    await guesser.getByRole('button', { name: 'Log in' }).click();
    expect((await answered).status()).toBe(401);
    await expect(guesser.getByText('Password or username does not match any user')).toBeVisible();
  }
  // The right password, now: paused.
  await guesser.getByLabel('Email').fill(owner.email);
  await guesser.getByLabel('Password').fill(owner.password);
  await guesser.getByRole('button', { name: 'Log in' }).click();
  await expect(guesser.getByText('Too many attempts. Try again in 15 minutes.')).toBeVisible();
  await expect(guesser).toHaveURL(/\/login$/);
  for (const width of [1366, 390]) {
    await guesser.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await guesser.screenshot({ path: test.info().outputPath(`login-paused-${width}.png`) });
  }

  // The owner is told, with a link that lifts the pause.
  const mail = await emailTo(
    smtp,
    owner.email,
    'Signing in to Grove is paused: choose a new password',
  );
  expect(mail.text).toContain('Hello Zoë,');
  const link = /(https?:\/\/\S+\/reset-password#token=[A-Za-z0-9_-]{43})/.exec(
    mail.text ?? '',
  )?.[1];
  expect(link, 'a reset link in the email').toBeDefined();
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(link ?? '');
  await ownerPage.getByLabel('New password', { exact: true }).fill('Zoë’s harbour-side passphrase');
  await ownerPage.getByLabel('Confirm new password').fill('Zoë’s harbour-side passphrase');
  await ownerPage.getByRole('button', { name: 'Save new password' }).click();
  await expect(ownerPage).toHaveURL(/\/dashboard$/);

  // Signing in works again, with the new password only.
  await guesser.goto('/login');
  await logIn(guesser, owner.email, 'Zoë’s harbour-side passphrase');
  await Promise.all([guesserContext.close(), ownerContext.close()]);
});
