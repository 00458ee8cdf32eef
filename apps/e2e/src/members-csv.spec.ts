import fs from 'node:fs';
import { expect } from '@playwright/test';
import { signUp, test, treeRow } from './support';

/** Where SCREENSHOT_DIR (if set) receives the Import dialog's screenshots, at SCREENSHOT_WIDTH px. */
const shots = process.env.SCREENSHOT_DIR;
const width = Number(process.env.SCREENSHOT_WIDTH ?? 0);
if (width > 0) test.use({ viewport: { width, height: width < 500 ? 844 : 768 } });

test('members CSV: export downloads a member just added; an import lists each row in a dry run, then adds the good ones', async ({
  page,
}) => {
  await signUp(page);
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
    "Name,Email,Branches,Membership price (dollars),Discount per branch (dollars),New price (dollars),Referral link,Referrer's email,Managed by Mindbody",
  );
  expect(exported).toContain('Nora Quinn,nora.quinn@example.com,0,120.00,10.00,120.00,,,no');

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
  await expect(dialog.getByLabel("Referrer's email (optional)")).toHaveValue('4');
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
