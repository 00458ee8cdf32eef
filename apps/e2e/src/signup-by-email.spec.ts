import { expect } from '@playwright/test';
import { emailTo, journeySmtp, newOwner, test } from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

const sizes = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

test("sign-up by email: 'Check your email', the emailed link makes the account; the same address again gets the same page and a 'someone tried' email (issue 31 item 6)", async ({
  page,
  browser,
}) => {
  // Four browsers and two sign-ups: longer than one journey step's default minute on a busy machine.
  test.setTimeout(120_000);
  const owner = { ...newOwner(), firstName: 'Siobhán', lastName: "O'Brien" };
  const fillAndSubmit = async () => {
    await page.goto('/signup');
    await page.getByLabel('Business name').fill(owner.businessName);
    await page.getByLabel('First name').fill(owner.firstName);
    await page.getByLabel('Last name').fill(owner.lastName);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Phone number').fill(owner.phoneNumber);
    await page.getByLabel('Website').fill(owner.website);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByText(owner.email)).toBeVisible();
  };
  await fillAndSubmit();
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: test.info().outputPath(`check-your-email-${size.width}.png`),
      fullPage: true,
    });
  }

  // The real email, through the journey's SMTP server.
  const mail = await emailTo(
    smtp,
    owner.email,
    'Confirm your email to finish creating your Grove account',
  );
  expect(mail.text).toContain('Hello Siobhán,');
  const link = /(https?:\/\/\S+\/signup\/confirm#token=[A-Za-z0-9_-]{43})/.exec(
    mail.text ?? '',
  )?.[1];
  expect(link, 'a sign-up link in the email').toBeDefined();

  // Opening the link in another browser (the owner's mail app) makes nothing by itself (a link
  // scanner runs the page too); 'Finish signing up' makes the account and signs in there.
  const mailContext = await browser.newContext();
  const mailPage = await mailContext.newPage();
  await mailPage.goto(link ?? '');
  const finish = mailPage.getByRole('button', { name: 'Finish signing up' });
  await expect(finish).toBeVisible();
  await expect(mailPage).toHaveURL(/\/signup\/confirm$/);
  for (const size of sizes) {
    await mailPage.setViewportSize(size);
    await mailPage.screenshot({
      path: test.info().outputPath(`finish-signing-up-${size.width}.png`),
      fullPage: true,
    });
  }
  await finish.click();
  await expect(mailPage).toHaveURL(/\/dashboard$/);
  await expect(
    mailPage.getByRole('button', { name: `${owner.firstName} ${owner.lastName}` }),
  ).toBeVisible();

  // Used once: opening it again says so, with the ways on.
  const againContext = await browser.newContext();
  const again = await againContext.newPage();
  await again.goto(link ?? '');
  await again.getByRole('button', { name: 'Finish signing up' }).click();
  await expect(again.getByRole('alert')).toHaveText(
    'This link has expired or was already used. Sign up again.',
  );
  await expect(again).toHaveURL(/\/signup\/confirm$/);
  for (const size of sizes) {
    await again.setViewportSize(size);
    await again.screenshot({
      path: test.info().outputPath(`link-used-${size.width}.png`),
      fullPage: true,
    });
  }
  await again.getByRole('main').getByRole('link', { name: 'Log in', exact: true }).click();
  await expect(again).toHaveURL(/\/login$/);

  // The same address again: the same page, and the mailbox is told someone tried.
  await page.setViewportSize(sizes[0]);
  await fillAndSubmit();
  const tried = await emailTo(
    smtp,
    owner.email,
    'Someone tried to create a Grove account with your email',
  );
  expect(tried.text).toMatch(/https?:\/\/\S+\/login\b/);
  expect(tried.text).toMatch(/https?:\/\/\S+\/forgot-password\b/);
  await mailContext.close();
  await againContext.close();
});
