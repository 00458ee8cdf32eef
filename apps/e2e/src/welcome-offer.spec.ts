import { expect } from '@playwright/test';
import { addMember, emailTo, journeySmtp, signUp, test } from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

test("the friend's welcome offer: the owner sets 'first month $0', and the join page, its success text, the approval and the welcome email say it (issue 33 item 1)", async ({
  page,
  browser,
}) => {
  const owner = await signUp(page);

  // Account Settings: 'First months free', one month, with the preview of the wording.
  await page.goto('/dashboard/account-settings/members');
  await page.getByLabel('Offer', { exact: true }).selectOption('free');
  const months = page.getByLabel('For the first … months');
  await months.fill('1');
  await expect(page.getByTestId('welcome-offer-preview')).toHaveText('Your first month free');
  await page.getByRole('button', { name: 'Save offer' }).click();
  await expect(page.getByText('Saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Offer', { exact: true })).toHaveValue('free');

  // A member's link, opened by a friend in a browser of their own.
  const siobhanId = await addMember(page, {
    name: "Siobhán O'Brien",
    email: 'siobhan.obrien@example.com',
    price: '80',
    discount: '10',
  });
  const link = await page.request.post(`/api/members/${siobhanId}/referral-link`);
  expect(link.status()).toBe(201);
  const { url } = (await link.json()) as { url: string };
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(url);
  await expect(friend.getByText('Siobhán thinks you would like')).toBeVisible();
  await expect(friend.getByTestId('welcome-offer')).toHaveText(
    'Your welcome offer: Your first month free',
  );
  await friend.getByLabel('Name').fill("Ben O'Connor");
  await friend.getByLabel('Email').fill('ben.oconnor@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await expect(friend.getByTestId('welcome-offer-next')).toHaveText(
    `Your welcome offer once ${owner.businessName} approves your membership: Your first month free`,
  );
  await friendContext.close();

  // The approval dialog states the offer; the owner approves Ben.
  await page.goto('/dashboard/prospective-members');
  await page
    .getByTestId('prospect-row')
    .filter({ hasText: "Ben O'Connor" })
    .getByRole('button', { name: 'Approve' })
    .click();
  const form = page.getByRole('dialog', { name: "Add a New Branch to Siobhán O'Brien" });
  await expect(form.getByTestId('approval-welcome-offer')).toContainText(
    'Welcome offer: Your first month free.',
  );
  await form.getByLabel('Current Membership ($)').fill('80');
  await form.getByLabel('Discount Per Referral ($)').fill('10');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  // The welcome email says it.
  const welcome = await emailTo(
    smtp,
    'ben.oconnor@example.com',
    `Welcome to ${owner.businessName}`,
  );
  expect(welcome?.text?.replace(/\s+/g, ' ')).toContain(
    'Your welcome offer: Your first month free.',
  );

  // Listed to honour by hand, then marked honoured.
  const row = page.getByTestId('welcome-offer-row').filter({ hasText: "Ben O'Connor" });
  await expect(row).toContainText('Your first month free');
  // The member's name as typed (a straight apostrophe), then the label's own ’s.
  await row.getByRole('button', { name: "Mark Ben O'Connor’s welcome offer honoured" }).click();
  await expect(page.getByText('Every welcome offer has been honoured.')).toBeVisible();
});
