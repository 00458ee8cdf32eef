import { expect, test } from '@playwright/test';
import {
  accessibilityViolations,
  autoLinksOff,
  BLOCKING_IMPACTS,
  signUp,
  treeRow,
} from './support';

test('a friend joins through a referral link, the owner approves, and the member pays less', async ({
  page,
  browser,
}) => {
  const owner = await signUp(page);
  // This journey shows a member without a link first: automatic links off.
  await autoLinksOff(page);
  const created = await page.request.post('/api/members', {
    data: {
      memberName: 'Sofia Rossi',
      memberEmail: 'sofia.rossi@example.com',
      membershipPriceCents: 9000,
      discountCents: 1250,
    },
  });
  expect(created.status()).toBe(201);
  const existing = await page.request.post('/api/members', {
    data: {
      memberName: 'Ella Evans',
      memberEmail: 'ella.evans@example.com',
      membershipPriceCents: 7000,
      discountCents: 1000,
    },
  });
  expect(existing.status()).toBe(201);

  // The owner creates Sofia's referral link.
  await page.goto('/referral-links');
  const sofiaLink = page.getByTestId('link-row').filter({ hasText: 'Sofia Rossi' });
  await expect(sofiaLink).toContainText('Referral link does not exist for this member');
  await sofiaLink.getByRole('button', { name: 'Create referral link for Sofia Rossi' }).click();
  const url = (await sofiaLink.getByRole('link', { name: /\/referral\// }).textContent()) ?? '';
  expect(url).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}$/);

  // A friend, not signed in, opens it on another device and joins.
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(url);
  // The gym's name heads the page (not Grove's logo), and says what happens next (issue 25).
  await expect(friend.getByRole('banner')).toHaveText(owner.businessName);
  await expect(friend.getByRole('heading', { name: 'What happens next' })).toBeVisible();
  await expect(friend.getByRole('heading', { name: 'Sofia invited you to join' })).toBeVisible();
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Not a valid name')).toBeVisible();
  await friend.getByLabel('Name').fill('Marco Bianchi');
  await friend.getByLabel('Email').fill('marco.bianchi@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();

  // Ella, already a member, and Sofia herself join through the same link: the page tells them
  // exactly what it told Marco, so it reveals nothing about who is a member.
  for (const [name, email] of [
    ['Ella Evans', 'Ella.Evans@example.com'],
    ['Sofia Rossi', 'sofia.rossi@example.com'],
  ]) {
    await friend.goto(url);
    await friend.getByLabel('Name').fill(name);
    await friend.getByLabel('Email').fill(email);
    await friend.getByRole('button', { name: 'Submit' }).click();
    await expect(friend.getByText('Successfully registered!')).toBeVisible();
  }

  // The owner sees only Marco as a prospective member, and Ella and Sofia as flagged lines with
  // the reason; Sofia's is dismissed.
  await page.goto('/dashboard/prospective-members');
  const marco = page.getByTestId('prospect-row').filter({ hasText: 'Marco Bianchi' });
  await expect(marco).toContainText('marco.bianchi@example.com');
  await expect(page.getByTestId('prospect-row')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Flagged joins' })).toBeVisible();
  const ellaFlag = page.getByTestId('flag-row').filter({ hasText: 'Ella Evans' });
  await expect(ellaFlag).toContainText(
    'Already a member: this email belongs to one of your members',
  );
  await expect(ellaFlag).toContainText('Tried to join through Sofia Rossi’s link');
  await expect(ellaFlag.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  expect(await accessibilityViolations(page, { impacts: BLOCKING_IMPACTS })).toEqual([]);
  const sofiaFlag = page
    .getByTestId('flag-row')
    .filter({ hasText: 'Sofia Rossi' })
    .filter({ hasText: 'Own link' });
  await expect(sofiaFlag).toContainText('sofia.rossi@example.com');
  await sofiaFlag.getByRole('button', { name: 'Dismiss flag for Sofia Rossi' }).click();
  await expect(sofiaFlag).toHaveCount(0);
  await expect(page.getByTestId('flag-row')).toHaveCount(1);

  // The owner approves Marco through the prefilled add-branch form.
  await marco.getByRole('button', { name: 'Approve' }).click();
  const form = page.getByRole('dialog', { name: 'Add a New Branch to Sofia Rossi' });
  await expect(form.getByLabel('Member name')).toHaveValue('Marco Bianchi');
  await expect(form.getByLabel('Email')).toHaveValue('marco.bianchi@example.com');
  await form.getByLabel('Current Membership ($)').fill('90');
  await form.getByLabel('Discount Per Referral ($)').fill('12.50');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(
    page.getByText('You have no more prospective members to review. Please come back later.'),
  ).toBeVisible();

  // Sofia now has one branch and pays $77.50; Marco is a tree of his own.
  await page.goto('/dashboard');
  const sofia = treeRow(page, 'Sofia Rossi');
  await expect(sofia.getByRole('cell').nth(1)).toHaveText('1');
  await expect(sofia).toContainText('$77.50');
  await expect(treeRow(page, 'Marco Bianchi')).toContainText('$90.00');

  // A new link replaces the old one: the old link now fails before anyone types.
  await page.goto('/referral-links');
  await sofiaLink.getByRole('button', { name: 'New link' }).click();
  await expect(sofiaLink.getByRole('link', { name: /\/referral\// })).not.toHaveText(url);
  await friend.goto(url);
  await expect(
    friend.getByText(
      'Something went wrong! Please try again. If this continues to occur, the link may be expired.',
    ),
  ).toBeVisible();
  await expect(friend.getByLabel('Name')).toHaveCount(0);
  await friendContext.close();
});
