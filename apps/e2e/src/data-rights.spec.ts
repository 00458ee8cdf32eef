import { parse } from 'csv-parse/sync';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import { expect, test } from '@playwright/test';
import { signUp } from './support';

const member = (memberName: string, memberEmail: string, membershipPriceCents = 12_000) => ({
  memberName,
  memberEmail,
  membershipPriceCents,
  discountCents: 1_500,
});

/** Every file of a ZIP as text, by name (yauzl). */
function unzip(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    fromBuffer(zip, { lazyEntries: true }, (error: Error | null, file: ZipFile) => {
      if (error) return reject(error);
      const files = new Map<string, string>();
      file.on('entry', (entry: Entry) =>
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts).toString('utf8'));
            file.readEntry();
          });
        }),
      );
      file.on('end', () => resolve(files));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

const NAMES: [string, string][] = [
  ["Siobhán O'Brien", 'siobhan.obrien@example.ie'],
  ["Zoë D'Arcy-Nguyễn", 'zoe.darcy@example.fr'],
  ['Ana-Sofía Pérez', 'ana.sofia@example.es'],
];

test('the owner exports everything as a ZIP that holds every member, and erases a member whose name is then gone everywhere while the referrer keeps her price', async ({
  page,
}, testInfo) => {
  await signUp(page);
  const [siobhan, zoe, ana] = NAMES;
  const referrer = await page.request.post('/api/members', { data: member(...siobhan) });
  expect(referrer.status()).toBe(201);
  const referrerId = ((await referrer.json()) as { id: string }).id;
  const friend = await page.request.post(`/api/members/${referrerId}/branches`, {
    data: member(zoe[0], zoe[1], 9_000),
  });
  expect(friend.status()).toBe(201);
  const friendId = ((await friend.json()) as { id: string }).id;
  expect((await page.request.post('/api/members', { data: member(...ana) })).status()).toBe(201);

  // Export everything from Account Settings: progress, then the download.
  await page.goto('/dashboard/account-settings/data');
  const card = page.getByRole('region', { name: 'Export your data' }).or(page.locator('#export'));
  await card.getByRole('button', { name: 'Export everything' }).click();
  const link = card.getByRole('link', { name: /Download your export/ });
  await expect(link).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath('export-1366.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const zip = await (await download.createReadStream()).toArray();
  const files = await unzip(Buffer.concat(zip as Buffer[]));
  expect(files.get('README.txt')).toContain('members.csv');
  const rows = parse(files.get('members.csv') as string, { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  expect(rows.map((row) => row['name']).sort()).toEqual(NAMES.map(([name]) => name).sort());

  // Erase Zoë from her profile.
  const priceBefore = (
    (await (await page.request.get(`/api/members/${referrerId}`)).json()) as {
      newPriceCents: number;
    }
  ).newPriceCents;
  await page.goto(`/dashboard/members/${friendId}`);
  await page.getByRole('button', { name: 'Erase personal data…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Erase personal data' }).click();
  await expect(page.getByRole('heading', { name: 'Erased member' })).toBeVisible();

  // Gone from the members list, Siobhán's branches, the CSV export; her price unchanged.
  await page.goto('/dashboard/branches');
  await expect(page.getByText("Siobhán O'Brien").first()).toBeVisible();
  await expect(page.getByText("Zoë D'Arcy-Nguyễn")).toHaveCount(0);
  const csv = await (await page.request.get('/api/members-csv/export')).text();
  expect(csv).not.toContain('Zoë');
  const referrers = await (await page.request.get('/api/analytics/referrers?period=365')).text();
  expect(referrers).not.toContain('Zoë');
  const after = (await (await page.request.get(`/api/members/${referrerId}`)).json()) as {
    newPriceCents: number;
    branches: number;
  };
  expect(after).toMatchObject({ newPriceCents: priceBefore, branches: 1 });
});
