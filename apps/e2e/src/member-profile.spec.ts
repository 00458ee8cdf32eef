import { expect, test } from '@playwright/test';
import { accessibilityViolations, autoLinksOff, signUp } from './support';

const member = (
  memberName: string,
  memberEmail: string,
  membershipPriceCents = 9000,
  discountCents = 1250,
) => ({
  memberName,
  memberEmail,
  membershipPriceCents,
  discountCents,
});

test('after an approval, the member profile shows the new branch in the tree and the price drop in the ledger', async ({
  page,
  browser,
}, testInfo) => {
  await signUp(page);
  // Members without a link first, then links for everyone: automatic links off to begin with.
  await autoLinksOff(page);
  const sofia = await page.request.post('/api/members', {
    data: member('Sofia Rossi', 'sofia.rossi@example.com'),
  });
  expect(sofia.status()).toBe(201);
  const sofiaId = ((await sofia.json()) as { id: string }).id;
  for (const [name, email] of [
    ['Ella Evans', 'ella.evans@example.com'],
    ['Omar Haddad', 'omar.haddad@example.com'],
  ])
    expect(
      (await page.request.post('/api/members', { data: member(name, email, 7000, 1000) })).status(),
    ).toBe(201);

  // Links for everyone: one click gives all three members a link; new members get one at once.
  await page.goto('/referral-links');
  await expect(page.getByText('3 members without a link.')).toBeVisible();
  await page.getByRole('checkbox', { name: /Create a referral link automatically/ }).check();
  await page.getByRole('button', { name: 'Create links for all members without one' }).click();
  await expect(page.getByText(/Every member has a referral link\./)).toBeVisible();
  await expect(page.getByText('Referral link does not exist for this member')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('referral-links-1366.png'), fullPage: true });
  const sofiaRow = page.getByTestId('link-row').filter({ hasText: 'Sofia Rossi' });
  const url = (await sofiaRow.getByRole('link', { name: /\/referral\// }).textContent()) ?? '';
  expect(url).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}$/);

  // A friend joins through Sofia's link.
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(url);
  await friend.getByLabel('Name').fill('Marco Bianchi');
  await friend.getByLabel('Email').fill('marco.bianchi@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friendContext.close();

  // Sofia's name on Referral Links opens her profile: Marco waits there, her tree is still bare.
  await sofiaRow.getByRole('link', { name: 'Sofia Rossi' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/members/${sofiaId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Sofia Rossi' })).toBeVisible();
  await expect(page.getByTestId('profile-prospects')).toContainText('Marco Bianchi');
  await expect(page.getByText('Sofia has no branches yet.', { exact: false })).toBeVisible();

  // The owner approves Marco from Prospective Members.
  await page.goto('/dashboard/prospective-members');
  const marco = page.getByTestId('prospect-row').filter({ hasText: 'Marco Bianchi' });
  await marco.getByRole('button', { name: 'Approve' }).click();
  const form = page.getByRole('dialog', { name: 'Add a New Branch to Sofia Rossi' });
  await form.getByLabel('Current Membership ($)').fill('90');
  await form.getByLabel('Discount Per Referral ($)').fill('12.50');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  // Marco grows a branch of his own (two levels deep in Sofia's tree).
  const rows = (await (await page.request.get('/api/members?search=marco')).json()) as {
    items: { id: string }[];
  };
  const marcoId = rows.items[0]?.id ?? '';
  expect(
    (
      await page.request.post(`/api/members/${marcoId}/branches`, {
        data: member('Nina Novak', 'nina.novak@example.com'),
      })
    ).status(),
  ).toBe(201);

  // Sofia's name on Branches opens her profile: Marco in the tree, the price drop in the ledger.
  await page.goto('/dashboard/branches');
  await page
    .getByTestId('tree-row')
    .filter({ hasText: 'sofia.rossi@example.com' })
    .getByRole('link', { name: 'Sofia Rossi' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sofia Rossi' })).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Referral tree of Sofia Rossi' });
  const marcoItem = tree.getByRole('treeitem', { name: /Marco Bianchi/ });
  await expect(marcoItem).toHaveAttribute('aria-level', '1');
  await expect(marcoItem).toContainText(/joined \d{1,2} \w{3} \d{4}/);
  const ninaItem = tree.getByRole('treeitem', { name: /Nina Novak/ });
  await expect(ninaItem).toHaveAttribute('aria-level', '2');
  const ledger = page.getByTestId('ledger-line');
  await expect(ledger.first()).toContainText('New branch: Marco Bianchi');
  await expect(ledger.first()).toContainText('$90.00');
  await expect(ledger.first()).toContainText('$77.50');
  await expect(page.getByTestId('price-now')).toContainText('$77.50');
  // Joined through her link: Marco, approved and now her branch (issue 25); nobody waiting.
  const joined = page.getByTestId('profile-prospect');
  await expect(joined).toHaveCount(1);
  await expect(joined.first()).toContainText('Marco Bianchi');
  await expect(joined.first()).toContainText('Approved: now a branch');
  await expect(page.getByRole('link', { name: 'Review on Prospective Members' })).toHaveCount(0);

  // The tree works from the keyboard alone, and axe finds nothing to fix.
  await marcoItem.focus();
  await page.keyboard.press('ArrowDown');
  await expect(ninaItem).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(marcoItem).toBeFocused();
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: testInfo.outputPath('member-profile-1366.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('member-profile-390.png'), fullPage: true });
  expect(await accessibilityViolations(page)).toEqual([]);

  // Enter opens Marco's profile: the approval gave him a link of his own at once.
  await marcoItem.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Marco Bianchi' })).toBeVisible();
  await expect(page.getByText('a branch of')).toBeVisible();
  await expect(page.getByRole('link', { name: /\/referral\// })).toBeVisible();

  // Another business's member (or an unknown id) is not found.
  await page.goto('/dashboard/members/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Member not found' })).toBeVisible();
  await expect(
    page.getByText('This member does not exist or is not one of your members.'),
  ).toBeVisible();
});
