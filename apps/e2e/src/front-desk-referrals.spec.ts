import { expect, type Page } from '@playwright/test';
import { accessibilityViolations, signUp, test, treeRow } from './support';

/** Fills Start Growing's four fields: $100.00 membership, $15.00 off per referral. */
async function startGrowing(page: Page, name: string, email: string) {
  await page.getByRole('button', { name: 'Add New Tree' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start Growing' });
  await dialog.getByLabel('Member name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Current Membership ($)').fill('100');
  await dialog.getByLabel('Discount Per Referral ($)').fill('15');
  return dialog;
}

test("the desk adds Ben O'Connor with referrer 'sio' → Siobhán O'Brien, and 'Jenny (spin class)' waits in Referrals to match until matched", async ({
  page,
}) => {
  // Six members added through the form, two typeaheads and an axe check: over a minute on a busy
  // 2-core machine.
  test.setTimeout(120_000);
  await signUp(page);
  let dialog = await startGrowing(page, "Siobhán O'Brien", 'siobhan@example.ie');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // Ben arrives at the desk: "Siobhán sent me". The desk types "sio" and picks her.
  dialog = await startGrowing(page, "Ben O'Connor", 'ben.oconnor@example.com');
  const referredBy = dialog.getByRole('combobox', { name: 'Referred by (optional)' });
  await referredBy.fill('sio');
  await dialog.getByRole('option', { name: /Siobhán O'Brien/ }).click();
  await expect(dialog.getByText("Adds them as Siobhán O'Brien’s branch.")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('referred-by-picked.png') });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  // Siobhán has a branch, and her price dropped by her discount.
  await expect(treeRow(page, "Siobhán O'Brien").getByRole('cell').nth(1)).toHaveText('1');
  await expect(treeRow(page, "Siobhán O'Brien")).toContainText('$85.00');
  await expect(treeRow(page, "Ben O'Connor")).toContainText("Siobhán O'Brien");

  // Chloé names "Jenny (spin class)", who is not a member yet: she waits.
  dialog = await startGrowing(page, 'Chloé Dubois-Martin', 'chloe@example.fr');
  await dialog.getByRole('combobox', { name: 'Referred by (optional)' }).fill('Jenny (spin class)');
  await expect(
    dialog.getByText('No member matches “Jenny (spin class)”: it will wait in Referrals to match.'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const queue = page.getByRole('region', { name: 'Referrals to match (1)' });
  await expect(queue.getByText('Chloé Dubois-Martin', { exact: true })).toBeVisible();
  await expect(queue.getByText(/referred by “Jenny \(spin class\)”/)).toBeVisible();

  // Jenny joins; the owner matches Chloé to her, and the queue goes away.
  dialog = await startGrowing(page, 'Jenny Smith-Jones', 'jenny@example.com');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await queue.getByRole('combobox', { name: 'Who referred Chloé Dubois-Martin?' }).fill('jenny');
  await queue.getByRole('option', { name: /Jenny Smith-Jones/ }).click();
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('referrals-to-match.png'), fullPage: true });
  await queue.getByRole('button', { name: 'Match' }).click();
  await expect(page.getByRole('region', { name: /Referrals to match/ })).toBeHidden();
  await expect(treeRow(page, 'Jenny Smith-Jones')).toContainText('$85.00');
  await expect(treeRow(page, 'Chloé Dubois-Martin')).toContainText('Jenny Smith-Jones');

  // On a phone the picker and the queue fit the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  dialog = await startGrowing(page, 'Dan Ó Sé', 'dan@example.ie');
  await dialog.getByRole('combobox', { name: 'Referred by (optional)' }).fill('a flyer');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'Referrals to match (1)' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('referrals-to-match-phone.png') });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
