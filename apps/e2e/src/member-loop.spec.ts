import { expect, test } from '@playwright/test';
import { addMember, approveProspect, emailTo, magicLinkIn, signUp, journeySmtp } from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

/**
 * The whole member loop of issue 15, each step as its person sees it: the owner emails the
 * member their link (seeing first the email they will get), the member opens the magic link on a
 * phone, a friend joins from the link with JavaScript off, the member hears of it, the owner
 * approves, and the member sees the branch counting and their new price, and is told so by
 * email; the friend's welcome holds their own referral link (issue 25).
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

  // Lena got a link when she was added (automatic links are on for a new business, issue 25);
  // the owner emails every member theirs from Referral Links.
  await page.goto('/referral-links');
  const row = page.getByTestId('link-row').filter({ hasText: 'Lena Fischer' });
  const referralUrl = (await row.getByRole('link', { name: /\/referral\// }).textContent()) ?? '';
  expect(referralUrl).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}$/);
  await page.getByRole('button', { name: 'Email all links' }).click();
  // It asks first, with how many members it will email and the email Lena will get (issue 25).
  const ask = page.getByRole('dialog', { name: 'Email 1 member their referral link?' });
  await expect(ask.getByText('Example: the email Lena Fischer will get')).toBeVisible();
  await expect(
    ask.getByText(`Subject: Your referral link for ${owner.businessName}`),
  ).toBeVisible();
  await expect(
    ask.frameLocator('iframe[title="Example email to Lena Fischer"]').getByText(referralUrl),
  ).toBeVisible();
  await ask.getByRole('button', { name: 'Email 1 member' }).click();
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

  // Marco joins from Lena's link on a phone with JavaScript off. His address is this journey's
  // own: referral.spec.ts approves a Marco Bianchi at a Riverside Strength too, and its welcome,
  // retried while no SMTP server listens, can arrive here.
  const friendContext = await browser.newContext({
    javaScriptEnabled: false,
    viewport: phoneViewport,
  });
  const friend = await friendContext.newPage();
  await friend.goto(referralUrl);
  await expect(friend.getByRole('heading', { name: 'Lena invited you to join' })).toBeVisible();
  await friend.getByLabel('Name').fill('Marco Bianchi');
  await friend.getByLabel('Email').fill('marco.bianchi@bianchi.example');
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

  // Marco's welcome holds his OWN referral link (the one Referral Links shows for him), so he
  // can refer friends at once; its magic link opens his page with that same link.
  const welcome = await emailTo(
    smtp,
    'marco.bianchi@bianchi.example',
    `Welcome to ${owner.businessName}`,
  );
  await page.goto('/referral-links');
  const marcoRow = page.getByTestId('link-row').filter({ hasText: 'Marco Bianchi' });
  const marcoUrl = (await marcoRow.getByRole('link', { name: /\/referral\// }).textContent()) ?? '';
  expect(marcoUrl).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}$/);
  expect(marcoUrl).not.toBe(referralUrl);
  expect(welcome.text).toContain('You can refer friends too');
  expect(welcome.text).toContain(marcoUrl);
  expect(welcome.text).not.toContain(referralUrl);
  const marcoPhone = await browser.newContext({ viewport: phoneViewport });
  const marcoPage = await marcoPhone.newPage();
  await marcoPage.goto(magicLinkIn(welcome));
  await expect(marcoPage.getByRole('heading', { name: 'Hi Marco' })).toBeVisible();
  await expect(marcoPage.getByTestId('referral-url')).toHaveText(marcoUrl);
  await marcoPhone.close();
  await phone.close();
});
