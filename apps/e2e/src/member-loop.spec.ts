import { expect, test } from '@playwright/test';
import { addMember, approveProspect, emailTo, magicLinkIn, signUp, journeySmtp } from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

/**
 * The whole member loop of issue 15, each step as its person sees it: the owner emails the
 * member their link, the member opens the magic link on a phone, a friend joins from the link
 * with JavaScript off, the member hears of it, the owner approves, and the member sees the
 * branch counting and their new price, and is told so by email.
 */
test('the member loop: link emailed, magic link, a friend joins without JavaScript, approved, the member sees and hears their new price', async ({
  page,
  browser,
}) => {
  const phoneViewport = { width: 390, height: 844 };
  const owner = await signUp(page);
  await addMember(page, {
    name: 'Lena Fischer',
    email: 'lena.fischer@example.com',
    price: '80',
    discount: '10',
  });

  // The owner gives Lena a link and emails every member theirs from Referral Links.
  await page.goto('/referral-links');
  const row = page.getByTestId('link-row').filter({ hasText: 'Lena Fischer' });
  await row.getByRole('button', { name: 'Create referral link for Lena Fischer' }).click();
  const referralUrl = (await row.getByRole('link', { name: /\/referral\// }).textContent()) ?? '';
  expect(referralUrl).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}$/);
  await page.getByRole('button', { name: 'Email all links' }).click();
  // It asks first, with how many members it will email (issue 25).
  await page
    .getByRole('dialog', { name: 'Email 1 member their referral link?' })
    .getByRole('button', { name: 'Email 1 member' })
    .click();
  await expect(page.getByText('Referral links emailed to 1 member.')).toBeVisible();

  // Lena reads the email and opens its magic link on her phone: her link and her price.
  const linkMail = await emailTo(
    smtp,
    'lena.fischer@example.com',
    `Your referral link for ${owner.businessName}`,
  );
  expect(linkMail.text).toContain(referralUrl);
  const phone = await browser.newContext({ viewport: phoneViewport });
  const member = await phone.newPage();
  await member.goto(magicLinkIn(linkMail));
  await expect(member.getByRole('heading', { name: 'Hi Lena' })).toBeVisible();
  await expect(member).toHaveURL(/\/member$/);
  await expect(member.getByTestId('referral-url')).toHaveText(referralUrl);
  await expect(member.getByTestId('price-now')).toHaveText('$80.00 a month');
  await expect(member.getByText('No friends yet: share your link!')).toBeVisible();

  // Marco joins from Lena's link on a phone with JavaScript off.
  const friendContext = await browser.newContext({
    javaScriptEnabled: false,
    viewport: phoneViewport,
  });
  const friend = await friendContext.newPage();
  await friend.goto(referralUrl);
  await expect(friend.getByRole('heading', { name: 'Lena invited you to join' })).toBeVisible();
  await friend.getByLabel('Name').fill('Marco Bianchi');
  await friend.getByLabel('Email').fill('marco.bianchi@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friendContext.close();

  // Lena hears that Marco joined; her page shows him waiting.
  const joined = await emailTo(
    smtp,
    'lena.fischer@example.com',
    'Marco Bianchi joined with your link',
  );
  expect(joined.from?.value[0]?.name).toBe(owner.businessName);
  await member.reload();
  const marco = member.getByRole('listitem').filter({ hasText: 'Marco' });
  await expect(marco).toContainText('Pending');

  // The owner approves Marco in Prospective Members.
  await approveProspect(page, {
    friend: 'Marco Bianchi',
    referrer: 'Lena Fischer',
    price: '80',
    discount: '10',
  });

  // Lena's page: Marco counts, her price is $70.00; and the email tells her so.
  await member.reload();
  await expect(marco).toContainText('Counting');
  await expect(member.getByTestId('price-now')).toHaveText('$70.00 a month');
  await expect(member.getByText('$80.00 → $70.00')).toBeVisible();
  await member.screenshot({ path: test.info().outputPath('member-loop-390.png'), fullPage: true });
  await emailTo(
    smtp,
    'lena.fischer@example.com',
    'Marco Bianchi is now your branch: your price is now $70.00',
  );
  await phone.close();
});
