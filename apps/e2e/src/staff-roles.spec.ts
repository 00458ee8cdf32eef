import { expect, type Page } from '@playwright/test';
import { FRONT_DESK_PRICE_MESSAGE } from '@grove/contracts';
import {
  addMember,
  invitationLink,
  inviteStaff,
  journeySmtp,
  signUp,
  test,
  treeRow,
} from './support';

const smtp = journeySmtp();

/** The Settings navigation's section names, as the signed-in role sees them. */
async function settingsSections(page: Page): Promise<string[]> {
  await page.goto('/dashboard/account-settings');
  const nav = page.getByRole('navigation', { name: 'Settings' });
  await expect(nav.getByRole('link', { name: 'Your details' })).toBeVisible();
  return nav.getByRole('link').allTextContents();
}

test('the owner invites a front-desk member, who signs in, approves a friend at the referrer’s price, cannot change a price, and is signed out when removed (issue 34 item 1)', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await signUp(page);
  const ninaId = await addMember(page, {
    name: 'Nina Ó Dálaigh',
    email: `nina.${Date.now()}@example.com`,
    price: '100',
    discount: '10',
  });
  const link = await page.request.post(`/api/members/${ninaId}/referral-link`);
  expect(link.status()).toBe(201);
  const { code } = (await link.json()) as { code: string };

  // Account Settings → Team: the owner invites the desk.
  const deskEmail = `zoe.desk.${Date.now()}@example.com`;
  await inviteStaff(page, deskEmail, 'front_desk');
  await expect(page.getByRole('list', { name: 'Pending invitations' })).toContainText(deskEmail);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`settings-team-${width}.png`) });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  // Zoë opens the link in her own browser, names herself and chooses a password.
  const deskContext = await browser.newContext();
  const desk = await deskContext.newPage();
  await desk.goto(await invitationLink(smtp, deskEmail, owner));
  await expect(desk.getByText(`as Front desk. You will sign in as ${deskEmail}`)).toBeVisible();
  await desk.getByLabel('First name').fill('Zoë');
  await desk.getByLabel('Last name').fill("D'Arcy-Nguyễn");
  await desk.getByLabel('Password').fill('front desk at six am');
  await desk.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(desk).toHaveURL(/\/dashboard$/);
  await expect(desk.getByRole('button', { name: "Zoë D'Arcy-Nguyễn" })).toBeVisible();

  // The desk sees no price controls of its own: no Remove Tree, Settings without the business's sections.
  await expect(treeRow(desk, 'Nina Ó Dálaigh')).toBeVisible();
  await expect(desk.getByRole('button', { name: 'Remove Tree' })).toHaveCount(0);
  expect(await settingsSections(desk)).toEqual(['Your details', 'Security']);

  // A friend joins through Nina's link; the desk approves her at the prefilled price and discount.
  const friendEmail = `aoife.${Date.now()}@example.com`;
  const joined = await desk.request.post(`/api/referrals/${code}/join`, {
    data: { name: "Aoife D'Souza", email: friendEmail },
  });
  expect(joined.status()).toBe(201);
  await desk.goto('/dashboard/prospective-members');
  await desk
    .getByTestId('prospect-row')
    .filter({ hasText: "Aoife D'Souza" })
    .getByRole('button', { name: 'Approve' })
    .click();
  const form = desk.getByRole('dialog', { name: 'Add a New Branch to Nina Ó Dálaigh' });
  await expect(form.getByLabel('Current Membership ($)')).toHaveAttribute('readonly', '');
  await expect(form.getByLabel('Discount Per Referral ($)')).toHaveAttribute('readonly', '');
  await desk.screenshot({ path: test.info().outputPath('front-desk-approves.png') });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await desk.goto('/dashboard');
  await expect(treeRow(desk, 'Nina Ó Dálaigh')).toContainText('$90.00');

  // The API refuses the desk a price change, and nothing changes.
  const refused = await desk.request.patch(`/api/members/${ninaId}`, {
    data: { memberName: 'Nina Ó Dálaigh', membershipPriceCents: 5_000, discountCents: 1_000 },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(FRONT_DESK_PRICE_MESSAGE);
  await page.goto('/dashboard');
  await expect(treeRow(page, 'Nina Ó Dálaigh')).toContainText('$90.00');

  // The owner removes Zoë from the team: her open tab is signed out on its next request.
  await page.goto('/dashboard/account-settings/team');
  const team = page.getByRole('list', { name: 'Team' });
  await expect(team).toContainText("Zoë D'Arcy-Nguyễn");
  await team
    .getByRole('listitem')
    .filter({ hasText: deskEmail })
    .getByRole('button', { name: 'Remove' })
    .click();
  await page.getByRole('button', { name: "Remove Zoë D'Arcy-Nguyễn" }).click();
  await expect(team).not.toContainText(deskEmail);

  await desk.getByRole('link', { name: 'Prospective Members' }).first().click();
  await expect(desk).toHaveURL(/\/login/);
  await deskContext.close();
});
