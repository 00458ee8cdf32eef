import { expect, test } from '@playwright/test';
import { addMember, approveProspect, emailTo, journeySmtp, signUp } from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

test('event emails: the member hears that a friend joined and, once approved, their new price; the owner chooses the emails on a phone and a desktop', async ({
  page,
  browser,
}) => {
  const owner = await signUp(page);
  const ninaId = await addMember(page, {
    name: 'Priya Shah',
    email: 'priya.shah@example.com',
    price: '80',
    discount: '10',
  });
  const link = await page.request.post(`/api/members/${ninaId}/referral-link`);
  expect(link.status()).toBe(201);
  const { url } = (await link.json()) as { url: string };

  // A friend joins through Priya's link.
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(url);
  await friend.getByLabel('Name').fill('Sam Stone');
  await friend.getByLabel('Email').fill('sam.stone@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friendContext.close();

  const joined = await emailTo(smtp, 'priya.shah@example.com', 'Sam Stone joined with your link');
  expect(joined?.from?.value[0]?.name).toBe(owner.businessName);
  expect(joined?.text?.replace(/\s+/g, ' ')).toContain('your price drops by $10.00 a month');

  // The owner approves Sam: Priya's price drops to $70.00 and Sam is welcomed.
  await approveProspect(page, {
    friend: 'Sam Stone',
    referrer: 'Priya Shah',
    price: '80',
    discount: '10',
  });
  await emailTo(
    smtp,
    'priya.shah@example.com',
    'Sam Stone is now your branch: your price is now $70.00',
  );
  const welcome = await emailTo(smtp, 'sam.stone@example.com', `Welcome to ${owner.businessName}`);
  expect(welcome?.text).toMatch(/\/member#token=[A-Za-z0-9_-]{43}/);

  // Account Settings: the owner turns the welcome off, on a desktop and on a phone.
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/dashboard/account-settings/emails');
    const card = page.getByRole('heading', { name: 'Emails to members' });
    await card.scrollIntoViewIfNeeded();
    await expect(
      page.getByRole('checkbox', { name: /A friend joined with their link/ }),
    ).toBeChecked();
    await page.screenshot({
      path: test.info().outputPath(`account-settings-member-emails-${width}.png`),
      fullPage: true,
    });
  }
  const welcomeBox = page.getByRole('checkbox', { name: /Welcome the approved friend/ });
  await welcomeBox.click();
  await expect(welcomeBox).not.toBeChecked();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('checkbox', { name: /Welcome the approved friend/ }),
  ).not.toBeChecked();
});
