import { expect } from '@playwright/test';
import { accessibilityViolations, addMember, signUp, test, treeRow } from './support';

test("the owner caps the referrer's reward at 40% and sees a member capped on Branches and the profile, on a desktop and on a phone", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page);

  // Siobhán pays $100.00 with $15.00 off per friend: three friends take $45.00 → $55.00.
  const siobhanId = await addMember(page, {
    name: "Siobhán O'Brien",
    email: 'siobhan.obrien@example.com',
    price: '100',
    discount: '15',
  });
  for (const [name, email] of [
    ['Ana-Sofía Pérez', 'ana.sofia@example.com'],
    ["Zoë D'Arcy-Nguyễn", 'zoe.darcy@example.com'],
    ['Kenji Watanabe', 'kenji.watanabe@example.com'],
  ])
    await addMember(page, { name, email, price: '80', discount: '10' }, siobhanId);
  await page.goto('/dashboard');
  const siobhan = treeRow(page, "Siobhán O'Brien");
  await expect(siobhan).toContainText('$55.00');
  await expect(siobhan.getByText('Capped')).toHaveCount(0);

  // Account Settings → Members & rewards: 'Reward for referrers', a bad cap refused, then 40%.
  await page.goto('/dashboard/account-settings/members');
  const card = page.locator('[aria-labelledby="referrer-reward-title"]').first();
  await expect(page.getByRole('heading', { name: 'Reward for referrers' })).toBeVisible();
  const percent = page.getByRole('textbox', { name: 'Most a member can save, % of their price' });
  await expect(percent).toHaveValue('100');
  await percent.fill('140');
  await page.getByRole('button', { name: 'Save reward' }).click();
  await expect(
    page.getByText('Enter the most a member can save: a whole number from 1 to 100 percent'),
  ).toBeVisible();
  await percent.fill('40');
  await page.getByRole('button', { name: 'Save reward' }).click();
  await expect(card.getByText('Saved')).toBeVisible();
  await page.reload();
  await expect(percent).toHaveValue('40');
  expect(
    await accessibilityViolations(page, { include: '[aria-labelledby="referrer-reward-title"]' }),
  ).toEqual([]);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`reward-card-${width}.png`) });
  }

  // Branches: the price stops at 60% of $100.00 and says 'Capped'; the profile says the same.
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/dashboard');
    await expect(siobhan).toContainText('$60.00');
    await expect(siobhan.getByText('Capped')).toBeVisible();
    await expect(treeRow(page, 'Kenji Watanabe').getByText('Capped')).toHaveCount(0);
    await page.screenshot({
      path: test.info().outputPath(`branches-capped-${width}.png`),
      fullPage: true,
    });
    await page.goto(`/dashboard/members/${siobhanId}`);
    await expect(page.getByText('Capped').first()).toBeVisible();
    await expect(page.getByText('Referral reward changed')).toBeVisible();
    await page.screenshot({
      path: test.info().outputPath(`profile-capped-${width}.png`),
      fullPage: true,
    });
  }
});
