import { generate } from 'otplib';
import { expect } from '@playwright/test';
import { invitationLink, inviteStaff, journeySmtp, logIn, newOwner, signUp, test } from './support';

const smtp = journeySmtp();

/** The code the app of `secret` shows `offsetSeconds` from now. */
const codeOf = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/**
 * A second factor at sign-in (issue 34 item 3, docs/product.md#second-factor): an owner sets up an
 * authenticator app in Account Settings' Security card (the key beside the QR code, a code from
 * the app, the 10 recovery codes shown once), signs out, and signs in again with the password and
 * then the app's next code; a recovery code works once.
 */
test('an owner turns on an authenticator app, then signs in with a password and a code, and once with a recovery code', async ({
  page,
}) => {
  const owner = await signUp(page, {
    ...newOwner(),
    firstName: 'Siobhán',
    lastName: "O'Brien",
    businessName: 'Zoë’s Strength Lab',
  });
  await page.goto('/dashboard/account-settings/security');
  await expect(page.getByRole('heading', { name: 'Security', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByAltText('QR code to scan with your authenticator app')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from your app').fill(await codeOf(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent())?.trim() ?? '';
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText(/10 recovery codes left/)).toBeVisible();

  // Signed out, the password alone does not sign in: the code does.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  // The code used to turn the app on is accepted once: the next one signs in.
  await page.getByLabel('Code').fill(await codeOf(secret, 30));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A recovery code signs in once.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('Code').fill(recovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/account-settings/security');
  await expect(page.getByText(/9 recovery codes left/)).toBeVisible();

  // Without a second factor the login page signs in at once (logIn waits for the dashboard).
  await page
    .getByLabel('To turn it off, enter a code, a recovery code or your password')
    .fill(owner.password);
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
  await page.context().clearCookies();
  await page.goto('/login');
  await logIn(page, owner.email, owner.password);
});

/**
 * The business's requirement reaches a member of staff already signed in (docs/product.md#second-factor):
 * once the owner requires a second factor, the desk's next screen is refused by the API (403) and
 * the web sends them to Security with the requirement's message, from any screen, instead of an
 * alert on that screen, its own sign-ins still listed; with an app set up there, the screens open again.
 */
test('a member of staff without a second factor is sent to Security when the owner starts requiring one', async ({
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
  const deskEmail = `zoe.desk.${Date.now()}@example.com`;
  await inviteStaff(page, deskEmail, 'front_desk');
  const deskContext = await browser.newContext();
  const desk = await deskContext.newPage();
  await desk.goto(await invitationLink(smtp, deskEmail, owner));
  await desk.getByLabel('First name').fill('Zoë');
  await desk.getByLabel('Last name').fill("D'Arcy-Nguyễn");
  await desk.getByLabel('Password').fill('front desk at six am');
  await desk.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(desk).toHaveURL(/\/dashboard$/);

  // The owner sets up their own app, then requires a second factor of everyone.
  await page.goto('/dashboard/account-settings/security');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  await page.getByLabel('Code from your app').fill(await codeOf(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  // A controlled box: it shows checked once the API has saved it.
  await page.getByLabel('Require a second factor of every member of staff').click();
  await expect(page.getByLabel('Require a second factor of every member of staff')).toBeChecked();

  // The desk's open tab: the next screen it opens is refused, and it lands on Security.
  await desk.getByRole('link', { name: 'Prospective Members' }).first().click();
  await expect(desk).toHaveURL(/\/dashboard\/account-settings\/security$/);
  // Said once, on Security (no alert left on the screen the desk came from).
  await expect(
    desk.getByText(
      'Your business asks everyone to use a second factor. Please set up an authenticator app or a passkey.',
    ),
  ).toHaveCount(1);
  // Where they are signed in stays in view: a person always sees their own sign-ins.
  await expect(
    desk.getByRole('list', { name: 'Where you’re signed in' }).getByText('This browser'),
  ).toBeVisible();
  for (const width of [1366, 390]) {
    await desk.setViewportSize({ width, height: 900 });
    await desk.screenshot({ path: test.info().outputPath(`second-factor-sent-${width}.png`) });
  }
  await desk.setViewportSize({ width: 1366, height: 900 });

  // With an app set up, the screens open again.
  await desk.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const deskSecret = (await desk.getByTestId('totp-secret').textContent())?.trim() ?? '';
  await desk.getByLabel('Code from your app').fill(await codeOf(deskSecret));
  await desk.getByRole('button', { name: 'Turn on' }).click();
  await desk.getByRole('button', { name: 'I have saved them' }).click();
  await desk.goto('/dashboard/prospective-members');
  await expect(desk).toHaveURL(/\/dashboard\/prospective-members$/);
  await expect(desk.getByRole('heading', { name: 'Prospective Members', level: 1 })).toBeVisible();
  await expect(desk.getByText(/Your business asks everyone/)).toHaveCount(0);
  await deskContext.close();
});
