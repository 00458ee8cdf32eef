import { expect } from '@playwright/test';
import {
  accessibilityViolations,
  addMember,
  approveProspect,
  emailTo,
  journeySmtp,
  magicLinkIn,
  signUp,
  test,
  treeRow,
} from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

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

test('a one-off credit capped at 3 friends a year: the join page, the emails and the member page say it, Branches lists the rewards to honour and the 4th as capped', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = await signUp(page);

  // Account Settings → Members & rewards: a $25 credit per friend, at most 3 friends a year.
  await page.goto('/dashboard/account-settings/members');
  const card = page.locator('[aria-labelledby="referrer-reward-title"]').first();
  await card.getByLabel('Reward', { exact: true }).selectOption('credit');
  await card.getByRole('textbox', { name: 'Credit per friend' }).fill('25');
  await card.getByRole('textbox', { name: 'Most friends rewarded a year (optional)' }).fill('3');
  await expect(card.getByTestId('referrer-reward-preview')).toHaveText('A $25 credit per friend');
  await card.getByRole('button', { name: 'Save reward' }).click();
  await expect(card.getByText('Saved')).toBeVisible();

  // Siobhán's friends: three added at the desk count at once, each owed a $25 credit.
  const siobhanId = await addMember(page, {
    name: "Siobhán O'Brien",
    email: 'siobhan.credit@example.com',
    price: '100',
    discount: '15',
  });
  for (const [name, email] of [
    ['Ana-Sofía Pérez', 'ana.credit@example.com'],
    ["Zoë D'Arcy-Nguyễn", 'zoe.credit@example.com'],
    ['Kenji Watanabe', 'kenji.credit@example.com'],
  ])
    await addMember(page, { name, email, price: '80', discount: '10' }, siobhanId);

  // A fourth friend comes through her link: the join page says what Siobhán gets.
  const link = await page.request.post(`/api/members/${siobhanId}/referral-link`);
  expect([200, 201]).toContain(link.status());
  const { url } = (await link.json()) as { url: string };
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(url);
  await expect(
    friend.getByText('Siobhán gets a $25 credit as a thank-you for bringing a friend', {
      exact: false,
    }),
  ).toBeVisible();
  await friend.getByLabel('Name').fill('Ben O’Connor');
  await friend.getByLabel('Email').fill('ben.credit@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friendContext.close();
  const joined = await emailTo(
    smtp,
    'siobhan.credit@example.com',
    'Ben O’Connor joined with your link',
  );
  expect(joined.text?.replace(/\s+/g, ' ')).toContain(
    'they become your branch, which earns you a $25 credit.',
  );
  await approveProspect(page, {
    friend: 'Ben O’Connor',
    referrer: "Siobhán O'Brien",
    price: '80',
    discount: '10',
  });

  // Branches: the price stays $100.00; three credits to honour, Ben's capped (the 4th this year).
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/dashboard');
    await expect(treeRow(page, "Siobhán O'Brien")).toContainText('$100.00');
    const rows = page.getByTestId('reward-owed-row');
    await expect(rows).toHaveCount(4);
    await expect(rows.filter({ hasText: 'Ben O’Connor' })).toContainText('Capped: nothing owed');
    await expect(rows.filter({ hasText: 'Kenji Watanabe' })).toContainText('A $25 credit');
    await page.getByRole('heading', { name: 'Rewards to honour' }).scrollIntoViewIfNeeded();
    await page.screenshot({
      path: test.info().outputPath(`rewards-to-honour-${width}.png`),
      fullPage: true,
    });
  }
  await page
    .getByRole('button', { name: "Mark Siobhán O'Brien’s reward for Zoë D'Arcy-Nguyễn honoured" })
    .click();
  await expect(
    page.getByTestId('reward-owed-row').filter({ hasText: "Zoë D'Arcy-Nguyễn" }),
  ).toContainText('Honoured');
  await expect(page.getByText('2 rewards are owed to members', { exact: false })).toBeVisible();
  expect(await accessibilityViolations(page, { include: '.dash-flags' })).toEqual([]);
  const audit = (await (await page.request.get('/api/audit-log?kind=reward.honoured')).json()) as {
    items: { memberName: string }[];
  };
  expect(audit.items.map((entry) => entry.memberName)).toEqual(["Siobhán O'Brien"]);

  // Ben's welcome says what his own friends earn him, and so does his member page.
  const welcome = await emailTo(smtp, 'ben.credit@example.com', `Welcome to ${owner.businessName}`);
  expect(welcome.text?.replace(/\s+/g, ' ')).toContain(
    'each friend who joins earns you a $25 credit',
  );
  await page.goto(magicLinkIn(welcome));
  await expect(page.getByTestId('reward-per-friend')).toHaveText(
    'Each friend who joins with your link earns you a $25 credit.',
  );
});
