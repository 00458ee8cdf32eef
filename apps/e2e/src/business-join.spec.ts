import { expect } from '@playwright/test';
import { accessibilityViolations, addMember, signUp, test, treeRow } from './support';

test("the business's join page takes a friend with 'Who referred you?', and the owner resolves it into a branch (issue 33 item 4)", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await signUp(page);
  await addMember(page, {
    name: "Siobhán O'Brien",
    email: 'siobhan.obrien@example.ie',
    price: '100',
    discount: '15',
  });

  // Account Settings → Emails & sharing: the business's own join page, a link without a member.
  await page.goto('/dashboard/account-settings/emails');
  const card = page.getByTestId('join-page-link');
  await expect(card.getByRole('link', { name: 'QR (SVG)' })).toBeVisible();
  const url = (await card.locator('a.dash-link__url').textContent()) ?? '';
  expect(url).toMatch(/\/join\/[0-9a-f]{32}$/);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('heading', { name: 'Your join page' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`join-page-card-${width}.png`) });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  // A friend who came without a link opens it with JavaScript off: the page works without it.
  const friendContext = await browser.newContext({ javaScriptEnabled: false });
  const friend = await friendContext.newPage();
  await friend.goto(url);
  await expect(friend.getByRole('heading', { name: `Join ${owner.businessName}` })).toBeVisible();
  for (const width of [1366, 390]) {
    await friend.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await friend.screenshot({ path: test.info().outputPath(`business-join-${width}.png`) });
    expect(await friend.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  }
  await friend.getByLabel('Name').fill('Ben O’Connor');
  await friend.getByLabel('Email').fill('ben.oconnor@example.com');
  await friend.getByLabel('Who referred you?').fill('Siobhán from spin class');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  // The page names and confirms no member.
  await expect(friend.locator('body')).not.toContainText('Siobhán');
  await friendContext.close();

  // The owner sees what Ben typed, never matched for them, and approves him as a new tree.
  await page.goto('/dashboard/prospective-members');
  const row = page.getByTestId('prospect-row').filter({ hasText: 'Ben O’Connor' });
  await expect(row).toContainText('Join page · referred by “Siobhán from spin class”');
  await row.getByRole('button', { name: 'Approve' }).click();
  const form = page.getByRole('dialog', { name: 'Add Ben O’Connor' });
  await expect(form).toContainText('“Siobhán from spin class” then waits in Referrals to match');
  await form.getByLabel('Current Membership ($)').fill('100');
  await form.getByLabel('Discount Per Referral ($)').fill('15');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  // On Branches the note waits in Referrals to match; the owner picks Siobhán.
  await page.goto('/dashboard');
  const queue = page.getByRole('region', { name: 'Referrals to match (1)' });
  await expect(queue.getByText(/referred by “Siobhán from spin class”/)).toBeVisible();
  await queue.getByRole('combobox', { name: 'Who referred Ben O’Connor?' }).fill('sio');
  await queue.getByRole('option', { name: /Siobhán O'Brien/ }).click();
  expect(await accessibilityViolations(page)).toEqual([]);
  await queue.getByRole('button', { name: 'Match' }).click();
  await expect(page.getByRole('region', { name: /Referrals to match/ })).toBeHidden();
  await expect(treeRow(page, 'Ben O’Connor')).toContainText("Siobhán O'Brien");
  await expect(treeRow(page, "Siobhán O'Brien")).toContainText('$85.00');
});
