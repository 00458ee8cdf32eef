import fs from 'node:fs';
import path from 'node:path';
import { expect, type Download, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { workspaceRoot } from '../playwright.config';
import { autoLinksOff, signUp, test, treeRow } from './support';

/** An Excel "CSV UTF-8" export: BOM, CRLF, First/Last Name, "$59.00", names in "Referred By", a blank row. */
const EXCEL_FIXTURE = path.join(workspaceRoot, 'apps/api/test/fixtures/excel-members.csv');
const BOM = '\uFEFF';

/** The text of a download, its byte-order mark kept. */
async function downloaded(download: Download): Promise<string> {
  return fs.readFileSync(await download.path(), 'utf8');
}

/** Clicks a button that downloads a file and returns the download. */
async function download(page: Page, click: () => Promise<void>): Promise<Download> {
  const downloading = page.waitForEvent('download');
  await click();
  return downloading;
}

/** Where SCREENSHOT_DIR (if set) receives the Import dialog's screenshots, at SCREENSHOT_WIDTH px. */
const shots = process.env.SCREENSHOT_DIR;
const width = Number(process.env.SCREENSHOT_WIDTH ?? 0);
if (width > 0) test.use({ viewport: { width, height: width < 500 ? 844 : 768 } });

test('members CSV: export downloads a member just added; an import lists each row in a dry run, then adds the good ones', async ({
  page,
}) => {
  await signUp(page);
  // The export's 'Referral link' column stays empty for a member without one.
  await autoLinksOff(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Branches' })).toBeVisible();

  // A member added by hand is in the export.
  await page.getByRole('button', { name: 'Add New Tree' }).click();
  const startGrowing = page.getByRole('dialog', { name: 'Start Growing' });
  await startGrowing.getByLabel('Member name').fill('Nora Quinn');
  await startGrowing.getByLabel('Email').fill('nora.quinn@example.com');
  await startGrowing.getByLabel('Current Membership ($)').fill('120');
  await startGrowing.getByLabel('Discount Per Referral ($)').fill('10');
  await startGrowing.getByRole('button', { name: 'Save' }).click();
  await expect(startGrowing).toBeHidden();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^grove-members-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = fs.readFileSync(await download.path(), 'utf8');
  expect(exported.split('\n')[0]).toBe(
    "\uFEFFName,Email,Branches,Membership price,Discount per branch,New price,Currency,Referral link,Referrer's email,Billing,Status,Join date",
  );
  const today = new Date().toISOString().slice(0, 10);
  expect(exported).toContain(
    `Nora Quinn,nora.quinn@example.com,0,120.00,10.00,120.00,AUD,,,,Active,${today}`,
  );

  // Import three rows, one with a bad email.
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import members from CSV' });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'members.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Name,Email,Price,Discount,Referred by',
        'Omar Reyes,omar.reyes@example.com,90,5,nora.quinn@example.com',
        'Pia Stone,pia.stone@,80,5,',
        'Quin Tran,quin.tran@example.com,70.50,2.5,',
      ].join('\n'),
    ),
  });
  await expect(dialog.getByLabel('Referred by: email or name (optional)')).toHaveValue('4');
  if (shots) await page.screenshot({ path: `${shots}/mapping-${width}.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Check rows' }).click();
  const rows = dialog.getByTestId('csv-row');
  await expect(rows).toHaveCount(3);
  const bad = rows.filter({ hasText: 'Pia Stone' });
  await expect(bad).toContainText('Error');
  await expect(bad).toContainText('Not a valid email address');
  await expect(rows.filter({ hasText: 'Omar Reyes' })).toContainText('Will add');
  // Nothing is written by the dry run.
  await expect(treeRow(page, 'Omar Reyes')).toHaveCount(0);
  if (shots) await page.screenshot({ path: `${shots}/dry-run-${width}.png`, fullPage: true });

  await dialog.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(dialog.getByText(/Imported: 2 added/)).toBeVisible();
  await expect(dialog.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute(
    'value',
    '3',
  );
  if (shots) await page.screenshot({ path: `${shots}/progress-${width}.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Done' }).click();

  await expect(treeRow(page, 'Omar Reyes')).toBeVisible();
  await expect(treeRow(page, 'Quin Tran')).toContainText('$70.50');
  await expect(treeRow(page, 'Pia Stone')).toHaveCount(0);
  // Omar is Nora's branch: her price drops by her discount.
  const nora = treeRow(page, 'Nora Quinn');
  await expect(nora.getByRole('cell').nth(1)).toHaveText('1');
  await expect(nora).toContainText('$110.00');
});

test('members CSV: an Excel file imports with full names and the right referrers, and its failed rows come back as a file', async ({
  page,
}) => {
  await signUp(page);
  await expect(page.getByRole('heading', { name: 'Branches' })).toBeVisible();

  // A member of the business the file names as a referrer.
  await page.getByRole('button', { name: 'Add New Tree' }).click();
  const startGrowing = page.getByRole('dialog', { name: 'Start Growing' });
  await startGrowing.getByLabel('Member name').fill('Olivia Chen');
  await startGrowing.getByLabel('Email').fill('olivia.chen@example.com');
  await startGrowing.getByLabel('Current Membership ($)').fill('100');
  await startGrowing.getByLabel('Discount Per Referral ($)').fill('10');
  await startGrowing.getByRole('button', { name: 'Save' }).click();
  await expect(startGrowing).toBeHidden();

  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import members from CSV' });
  const template = await download(page, () =>
    dialog.getByRole('button', { name: 'Download a template' }).click(),
  );
  expect(template.suggestedFilename()).toBe('grove-members-template.csv');
  expect(await downloaded(template)).toBe(
    `${BOM}First name,Last name,Email,Membership price,Discount per referral,Referred by\r\n`,
  );

  await dialog.getByLabel('CSV file').setInputFiles(EXCEL_FIXTURE);
  // The blank row and the trailing blank line are not rows.
  await expect(dialog.getByRole('heading', { name: 'Match the columns (10 rows)' })).toBeVisible();
  await expect(dialog.getByLabel('Full name')).toHaveValue('');
  await expect(dialog.getByLabel('First name')).toHaveValue('0');
  await expect(dialog.getByLabel('Last name')).toHaveValue('1');
  await expect(dialog.getByLabel('Referred by: email or name (optional)')).toHaveValue('4');
  await expect(dialog.getByLabel('Discount per branch (dollars)')).toHaveValue('');
  await expect(dialog.getByRole('button', { name: 'Check rows' })).toBeDisabled();
  await dialog.getByLabel('Discount per branch for every row (dollars)').fill('$5.00');
  if (shots) await page.screenshot({ path: `${shots}/excel-mapping-${width}.png`, fullPage: true });

  await dialog.getByRole('button', { name: 'Check rows' }).click();
  const rows = dialog.getByTestId('csv-row');
  await expect(rows).toHaveCount(10);
  await expect(dialog.getByText(/9 to add, 0 to update, 0 unchanged/)).toBeVisible();
  await expect(rows.filter({ hasText: "Siobhán O'Brien" })).toContainText('Will add');
  await expect(rows.filter({ hasText: 'Anne-Marie Dubois' })).toContainText('Will add');
  // A name several members have, and a name of no one: imported, the name waits to be matched.
  await expect(rows.filter({ hasText: "Ben O'Connor" })).toContainText(
    'More than one member is named “Sam Lee”: it will wait in Referrals to match.',
  );
  await expect(rows.filter({ hasText: 'Ivy Park' })).toContainText(
    'No member matches “Nobody Known”: it will wait in Referrals to match.',
  );
  await expect(rows.filter({ hasText: 'Pia Stone' })).toContainText('Not a valid amount');
  if (shots) await page.screenshot({ path: `${shots}/excel-dry-run-${width}.png`, fullPage: true });

  const failed = await download(page, () =>
    dialog.getByRole('button', { name: 'Download failed rows (1)' }).click(),
  );
  expect(failed.suggestedFilename()).toBe('grove-failed-rows.csv');
  const failedText = await downloaded(failed);
  expect(failedText.startsWith(BOM)).toBe(true);
  const failedRecords = parse(failedText, { bom: true }) as string[][];
  expect(
    failedRecords.map((record) => [record[0], record[1], record.at(-2), record.at(-1)]),
  ).toEqual([
    ['First Name', 'Last Name', 'Line', 'Reason'],
    ['Pia', 'Stone', '10', 'Not a valid amount'],
  ]);

  await dialog.getByRole('button', { name: 'Import 9 rows' }).click();
  await expect(dialog.getByText(/Imported: 9 added/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Download failed rows (1)' })).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/excel-done-${width}.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Full names, "$1,059.00" read as 1,059 dollars, the discount for every row, branches counted.
  const tree = (name: string) => treeRow(page, name);
  await expect(tree("Siobhán O'Brien")).toBeVisible();
  await expect(tree('Anne-Marie Dubois')).toContainText('$49.50');
  await expect(tree('Emma Brown')).toContainText('$1,054.00');
  await expect(tree('Olivia Chen')).toContainText('$90.00');
  await expect(tree('Leo Martin')).toContainText('$54.00');

  // The right referrers, as the export says them.
  const exported = await download(page, () => page.getByRole('button', { name: 'Export' }).click());
  const records = parse(await downloaded(exported), { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  const referrerOf = new Map(records.map((record) => [record.Name, record["Referrer's email"]]));
  expect(Object.fromEntries(referrerOf)).toEqual({
    'Olivia Chen': '',
    'Leo Martin': '',
    'Emma Brown': 'leo.martin@example.com',
    "Siobhán O'Brien": 'emma.brown@example.com',
    'Anne-Marie Dubois': 'siobhan.obrien@example.com',
    'Sam Lee': '',
    'Tom Nguyen': 'olivia.chen@example.com',
    "Ben O'Connor": '',
    'Ivy Park': '',
  });
  expect(records).toHaveLength(10);
  // Ben and Ivy wait on Branches until the owner says who referred them.
  const queue = page.getByRole('region', { name: 'Referrals to match (2)' });
  await expect(queue.getByText("Ben O'Connor", { exact: true })).toBeVisible();
  await expect(queue.getByText(/referred by “Nobody Known”/)).toBeVisible();
});
