import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { MESSAGES } from '@grove/contracts';
import { signUp, watchForProblems } from './support';

/** A phone's width (iPhone 12–15). */
const PHONE = { width: 390, height: 844 };

/** Where each run leaves the join page's phone screenshots, to look at (dist/test-results). */
const shot = (name: string) => path.join(__dirname, '../../../dist/test-results/join-page', name);

/** Adds a member (as the signed-in owner) and gives them a referral link; → the link's URL. */
async function memberLink(request: APIRequestContext, name: string, email: string) {
  const member = await request.post('/api/members', {
    data: { memberName: name, memberEmail: email, membershipPriceCents: 9000, discountCents: 1000 },
  });
  expect(member.status()).toBe(201);
  const { id } = (await member.json()) as { id: string };
  const link = await request.post(`/api/members/${id}/referral-link`);
  expect(link.status()).toBe(201);
  return ((await link.json()) as { url: string }).url;
}

test('a friend with JavaScript off joins from the link and sees Successfully registered!', async ({
  page,
  browser,
}) => {
  const owner = await signUp(page);
  const url = await memberLink(page.request, 'Sofia Rossi', 'sofia.nojs@example.com');

  const friendContext = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const friend = await friendContext.newPage();
  await friend.goto(url);
  await expect(friend.getByRole('banner')).toHaveText(owner.businessName);
  await expect(friend.getByRole('heading', { name: 'Sofia invited you to join' })).toBeVisible();
  await friend.screenshot({ path: shot('no-js-390.png'), fullPage: true });

  // A bad send is answered by the page again, with the product's messages and what was typed.
  await friend.getByLabel('Name').fill('R2D2');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText(MESSAGES.invalidName)).toBeVisible();
  await expect(friend.getByText(MESSAGES.invalidEmail)).toBeVisible();
  await expect(friend.getByLabel('Name')).toHaveValue('R2D2');

  await friend.getByLabel('Name').fill('Marco Bianchi');
  await friend.getByLabel('Email').fill('marco.nojs@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await expect(friend.getByLabel('Name')).toHaveCount(0);
  await friend.screenshot({ path: shot('no-js-390-success.png'), fullPage: true });
  await friendContext.close();

  // The owner has Marco to review.
  await page.goto('/dashboard/prospective-members');
  await expect(page.getByTestId('prospect-row').filter({ hasText: 'Marco Bianchi' })).toContainText(
    'marco.nojs@example.com',
  );
});

test('with JavaScript the join page sends in place, with no console error or CSP refusal', async ({
  page,
  browser,
}) => {
  await signUp(page);
  const url = await memberLink(page.request, 'Ella Evans', 'ella.js@example.com');

  const friendContext = await browser.newContext({ viewport: PHONE });
  const friend = await friendContext.newPage();
  const problems = watchForProblems(friend);
  const documents: string[] = [];
  friend.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.method());
  });
  await friend.goto(url);
  await expect(friend.getByRole('heading', { name: 'Ella invited you to join' })).toBeVisible();
  await friend.screenshot({ path: shot('js-390.png'), fullPage: true });

  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText(MESSAGES.invalidName)).toBeVisible();
  await expect(friend.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await friend.getByLabel('Name').fill('Nina Park');
  await friend.getByLabel('Email').fill('nina.js@example.com');
  const sent = friend.waitForRequest((request) => request.url().endsWith('/join'));
  await friend.getByRole('button', { name: 'Submit' }).click();
  expect((await sent).url()).toContain('/api/referrals/');
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friend.screenshot({ path: shot('js-390-success.png'), fullPage: true });
  // One page load: the script checked and sent the form itself.
  expect(documents).toEqual(['GET']);
  expect(problems).toEqual([]);
  await friendContext.close();
});
