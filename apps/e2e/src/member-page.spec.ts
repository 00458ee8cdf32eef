import { expect, test } from '@playwright/test';
import { recipient } from '@grove/testing-smtp';
import {
  accessibilityViolations,
  addMember,
  autoLinksOff,
  BLOCKING_IMPACTS,
  magicLinkIn,
  signUp,
  journeySmtp,
} from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

test('the owner emails a member their link; the member opens the magic link on a phone and sees their link and price', async ({
  page,
  browser,
}) => {
  const owner = await signUp(page);
  // The owner creates Nina's link by hand below: automatic links off.
  await autoLinksOff(page);
  const ninaId = await addMember(page, {
    name: 'Nina Patel',
    email: 'nina.patel@example.com',
    price: '80',
    discount: '10',
  });
  await addMember(
    page,
    { name: 'Omar Haddad', email: 'omar.haddad@example.com', price: '80', discount: '10' },
    ninaId,
  );

  // The owner creates Nina's link and emails it to her from Referral Links.
  await page.goto('/referral-links');
  const row = page.getByTestId('link-row').filter({ hasText: 'Nina Patel' });
  await row.getByRole('button', { name: 'Create referral link for Nina Patel' }).click();
  const referralUrl = (await row.getByRole('link', { name: /\/referral\// }).textContent()) ?? '';
  expect(referralUrl).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}$/);
  await row.getByRole('button', { name: 'Email referral link to Nina Patel' }).click();
  await expect(page.getByText('Referral link emailed to Nina Patel.')).toBeVisible();
  // Re-sending at once is refused with a clear message.
  await row.getByRole('button', { name: 'Email referral link to Nina Patel' }).click();
  await expect(page.getByText(/already emailed their link in the last hour/)).toBeVisible();

  await expect
    .poll(() => smtp.emails.filter((mail) => recipient(mail) === 'nina.patel@example.com').length, {
      timeout: 20_000,
    })
    .toBe(1);
  const mail = smtp.emails.find((entry) => recipient(entry) === 'nina.patel@example.com');
  expect(mail?.from?.value[0]?.name).toBe(owner.businessName);
  expect(mail?.subject).toBe(`Your referral link for ${owner.businessName}`);
  expect(mail?.text).toContain(referralUrl);
  expect(mail?.html).toContain(referralUrl);
  const magicLink = magicLinkIn(mail);

  // The owner writes the message members share (Account Settings, docs/product.md#share-message).
  await page.goto('/dashboard/account-settings/emails');
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill("{firstName} (from spin class) here: try {gym} with me! It's {link}");
  await expect(page.getByTestId('share-preview')).toHaveText(
    `Sam (from spin class) here: try ${owner.businessName} with me! It's ${new URL(page.url()).origin}/referral/Xy7pQ2`,
  );
  await page.getByRole('button', { name: 'Save message' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();

  // Nina, on her phone, opens the magic link.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const member = await phone.newPage();
  await member.goto(magicLink);
  await expect(member.getByRole('heading', { name: 'Hi Nina' })).toBeVisible();
  await expect(member).toHaveURL(/\/member$/);
  await expect(member.getByTestId('referral-url')).toHaveText(referralUrl);
  // $80 membership, one friend counting at $10 off.
  await expect(member.getByTestId('price-now')).toHaveText('$70.00 a month');
  await expect(member.getByText('Membership price $80.00')).toBeVisible();
  await expect(member.getByText('1 more friend →')).toContainText('$60.00');
  await expect(member.getByText('Omar')).toBeVisible();
  // The price ledger the owner's flows wrote: Nina joined at $80, Omar's branch took $10 off.
  await expect(member.getByText('$80.00 → $70.00')).toBeVisible();
  // The QR code (drawn by the API for the member's session) has loaded.
  const qr = member.getByAltText('QR code of your referral link');
  await expect
    .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  expect(await accessibilityViolations(member, { impacts: BLOCKING_IMPACTS })).toEqual([]);
  // Copy link puts the referral link, marked ?via=copy, on the clipboard (the page's inline script).
  await phone.grantPermissions(['clipboard-read', 'clipboard-write']);
  await member.getByRole('button', { name: 'Copy link' }).click();
  await expect(member.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await member.evaluate(() => navigator.clipboard.readText())).toBe(
    `${referralUrl}?via=copy`,
  );
  // WhatsApp opens wa.me with the owner's message, filled in for Nina, her link marked ?via=whatsapp.
  await phone.route('https://wa.me/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>WhatsApp</title>' }),
  );
  const [whatsapp] = await Promise.all([
    member.waitForEvent('popup'),
    member.getByRole('link', { name: 'WhatsApp' }).click(),
  ]);
  const shared = new URL(whatsapp.url());
  expect(shared.origin + shared.pathname).toBe('https://wa.me/');
  expect(shared.searchParams.get('text')).toBe(
    `Nina (from spin class) here: try ${owner.businessName} with me! It's ${referralUrl}?via=whatsapp`,
  );
  await whatsapp.close();
  await member.screenshot({ path: 'dist/test-results/member-page-390.png', fullPage: true });
  await member.setViewportSize({ width: 1366, height: 900 });
  await member.screenshot({ path: 'dist/test-results/member-page-1366.png', fullPage: true });

  // The same magic link again (another device): used, so the page offers a new one.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const again = await other.newPage();
  await again.goto(magicLink);
  await expect(
    again.getByText('This link has expired or has already been used. Ask for a new one below.'),
  ).toBeVisible();
  await again.getByLabel('Your email').fill('nina.patel@example.com');
  await again.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(again.getByText(/If this email belongs to a member/)).toBeVisible();
  await again.screenshot({ path: 'dist/test-results/member-page-expired-390.png', fullPage: true });
  await expect
    .poll(
      () => smtp.emails.filter((entry) => recipient(entry) === 'nina.patel@example.com').length,
      {
        timeout: 20_000,
      },
    )
    .toBe(2);
  await phone.close();
  await other.close();
});
