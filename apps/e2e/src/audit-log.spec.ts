import { expect, type Page } from '@playwright/test';
import { addMember, invitationLink, inviteStaff, journeySmtp, signUp, test } from './support';

const smtp = journeySmtp();

/** The Activity table's rows as "Who · What · Member" lines, newest first. */
async function activityRows(page: Page): Promise<string[]> {
  const rows = page.locator('.dash-activity__table tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll('td')]
        .slice(1, 4)
        .map((td) => td.textContent?.trim())
        .join(' · '),
    ),
  );
}

test("every change of a team's day is in the audit log with its author (issue 34 item 2)", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await signUp(page);
  const ownerName = `${owner.firstName} ${owner.lastName}`;
  const ninaId = await addMember(page, {
    name: 'Nina Ó Dálaigh',
    email: `nina.${Date.now()}@example.com`,
    price: '100',
    discount: '10',
  });

  // The owner changes Nina's price on her profile.
  await page.goto(`/dashboard/members/${ninaId}`);
  await page.getByRole('button', { name: 'Edit details' }).click();
  await page.getByLabel('Current Membership ($)').fill('120');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('button', { name: 'Edit details' })).toBeVisible();

  // …and a setting: the defaults for new members.
  await page.goto('/dashboard/account-settings/members');
  const defaults = page.getByRole('form', { name: 'Defaults for new members' });
  await defaults.getByLabel('Discount Per Referral ($)').fill('12');
  await defaults.getByLabel('Membership price ($)').fill('95');
  await defaults.getByRole('button', { name: 'Save defaults' }).click();
  await expect(page.getByText('Saved')).toBeVisible();

  // The owner invites a front desk member, who joins and approves a friend of Nina's.
  const deskEmail = `zoe.desk.${Date.now()}@example.com`;
  await inviteStaff(page, deskEmail, 'front_desk');
  const link = await invitationLink(smtp, deskEmail, owner);
  const deskContext = await browser.newContext();
  const desk = await deskContext.newPage();
  await desk.goto(link);
  await desk.getByLabel('First name').fill('Zoë');
  await desk.getByLabel('Last name').fill("D'Arcy-Nguyễn");
  await desk.getByLabel('Password').fill('front desk at six am');
  await desk.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(desk).toHaveURL(/\/dashboard$/);
  // The desk has no Activity in its sidebar.
  await expect(desk.getByRole('link', { name: 'Activity' })).toHaveCount(0);

  const code = (
    (await (await page.request.post(`/api/members/${ninaId}/referral-link`)).json()) as {
      code: string;
    }
  ).code;
  const joined = await desk.request.post(`/api/referrals/${code}/join`, {
    data: { name: "Aoife D'Souza", email: `aoife.${Date.now()}@example.com` },
  });
  expect(joined.status()).toBe(201);
  await desk.goto('/dashboard/prospective-members');
  await desk
    .getByTestId('prospect-row')
    .filter({ hasText: "Aoife D'Souza" })
    .getByRole('button', { name: 'Approve' })
    .click();
  const form = desk.getByRole('dialog', { name: 'Add a New Branch to Nina Ó Dálaigh' });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await deskContext.close();

  // Activity shows each change with its author, newest first.
  await page.getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
  const rows = await activityRows(page);
  expect(rows).toEqual([
    "Zoë D'Arcy-Nguyễn · Friend approved · Aoife D'Souza",
    // Each new member's automatic referral link, in the member's own transaction.
    "Zoë D'Arcy-Nguyễn · Referral link created · Aoife D'Souza",
    "Zoë D'Arcy-Nguyễn · Branch added · Aoife D'Souza",
    // The desk's acceptance of the invitation, in its own transaction.
    "Zoë D'Arcy-Nguyễn · Staff joined · —",
    `${ownerName} · Staff invited · —`,
    `${ownerName} · Setting changed · —`,
    `${ownerName} · Price or discount changed · Nina Ó Dálaigh`,
    `${ownerName} · Referral link created · Nina Ó Dálaigh`,
    `${ownerName} · Member added · Nina Ó Dálaigh`,
  ]);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: test.info().outputPath(`activity-${width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  // Filtered by person: only the desk's changes.
  await page.getByLabel('Person').selectOption({ label: "Zoë D'Arcy-Nguyễn" });
  // Her joining, her approval, the branch it added and that branch's automatic referral link.
  await expect(page.locator('.dash-activity__table tbody tr')).toHaveCount(4);

  // The CSV holds the same entries.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^grove-activity-\d{4}-\d{2}-\d{2}\.csv$/);

  // Nina's profile shows her own history: the price change, from $100.00 to $120.00.
  await page.goto(`/dashboard/members/${ninaId}`);
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText('Price or discount changed');
  await expect(history).toContainText('$100.00');
  await expect(history).toContainText('$120.00');
});
