import { expect, test } from '@playwright/test';
import { accessibilityViolations, addMember, BLOCKING_IMPACTS, signUp } from './support';

test('fraud signals: a friend with a throwaway email is told the usual, and the owner sees why to check before approving, on a phone and a desktop', async ({
  page,
  browser,
}) => {
  await signUp(page);
  const sofiaId = await addMember(page, {
    name: 'Sofia Rossi',
    email: 'sofia.rossi@example.com',
    price: '90',
    discount: '12.50',
  });
  const link = await page.request.post(`/api/members/${sofiaId}/referral-link`);
  expect(link.status()).toBe(201);
  const { url } = (await link.json()) as { url: string };

  // Two friends join on another device: one with a throwaway address, one as Sofia herself.
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  for (const [name, email] of [
    ['Toby Throwaway', 'toby@mailinator.com'],
    ['Sofia Rossi', 'sofia.rossi@example.com'],
  ]) {
    await friend.goto(url);
    await friend.getByLabel('Name').fill(name);
    await friend.getByLabel('Email').fill(email);
    await friend.getByRole('button', { name: 'Submit' }).click();
    await expect(friend.getByText('Successfully registered!')).toBeVisible();
  }
  await friendContext.close();

  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/dashboard/prospective-members');
    const toby = page.getByTestId('prospect-row').filter({ hasText: 'Toby Throwaway' });
    await expect(toby.getByTestId('prospect-flags')).toContainText('Check before approving');
    await expect(
      toby.getByText('Disposable email: the address is from a throwaway email service'),
    ).toBeVisible();
    await expect(toby.getByRole('button', { name: 'Approve' })).toBeVisible();
    const own = page.getByTestId('flag-row').filter({ hasText: 'Sofia Rossi' });
    await expect(
      own.getByText('Own link: the member tried to join through their own referral link'),
    ).toBeVisible();
    await page.screenshot({
      path: test.info().outputPath(`prospective-members-fraud-${width}.png`),
      fullPage: true,
    });
    expect(await accessibilityViolations(page, { impacts: BLOCKING_IMPACTS })).toEqual([]);
  }

  // The owner still decides: removing Toby takes him off the list.
  await page
    .getByTestId('prospect-row')
    .filter({ hasText: 'Toby Throwaway' })
    .getByRole('button', { name: 'Remove' })
    .click();
  // It asks first (issue 25).
  await page
    .getByRole('dialog', { name: 'Remove Toby Throwaway?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(
    page.getByText('You have no more prospective members to review. Please come back later.'),
  ).toBeVisible();
});
