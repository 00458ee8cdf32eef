import { expect } from '@playwright/test';
import { addMember, autoLinksOff, emailTo, journeySmtp, signUp, test, treeRow } from './support';

/** The emails Grove sent to this journey's own SMTP server. */
const smtp = journeySmtp();

test("removing a branch asks, then the referrer's email says what happened; 'Email all links' asks with the count (issue 25)", async ({
  page,
}) => {
  await signUp(page);
  // Links are made by hand below (two members get one): automatic links off.
  await autoLinksOff(page);
  const lenaId = await addMember(page, {
    name: 'Lena Park',
    email: 'lena.park@example.com',
    price: '69',
    discount: '10',
  });
  await addMember(
    page,
    { name: 'Owen Reyes', email: 'owen.reyes@example.com', price: '69', discount: '10' },
    lenaId,
  );
  await addMember(page, {
    name: 'Ivy Chen',
    email: 'ivy.chen@example.com',
    price: '59',
    discount: '5',
  });

  // Removing Owen as Lena's branch asks first; Cancel keeps him.
  await page.goto('/dashboard');
  const lena = treeRow(page, 'Lena Park');
  await expect(lena).toContainText('$59.00');
  await lena.getByRole('button', { name: 'Add Branch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a New Branch to Lena Park' });
  await dialog.getByRole('button', { name: 'Remove branch Owen Reyes' }).click();
  await expect(
    dialog.getByText(
      'Remove Owen Reyes as Lena Park’s branch? Lena Park’s price goes back up. Owen Reyes stays as a tree.',
    ),
  ).toBeVisible();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: test.info().outputPath(`remove-branch-ask-${width}.png`) });
  }
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByRole('button', { name: 'Remove branch Owen Reyes' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove branch Owen Reyes' }).click();
  await dialog.getByRole('button', { name: 'Remove branch', exact: true }).click();
  await expect(dialog.getByText('No branches yet')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(lena).toContainText('$69.00');

  // Lena is told what happened: Owen no longer counts; nobody's membership ended.
  const told = await emailTo(
    smtp,
    'lena.park@example.com',
    'Owen Reyes no longer counts as your branch: your price is back to $69.00',
  );
  expect(told.text?.replace(/\s+/g, ' ')).toContain('Owen Reyes no longer counts as your branch');
  expect(smtp.emails.filter((mail) => mail.subject?.includes('membership ended'))).toEqual([]);

  // 'Email all links' counts who would get it and asks; Cancel sends nothing.
  for (const email of ['lena.park@example.com', 'ivy.chen@example.com']) {
    const [{ id }] = (
      (await (
        await page.request.get(`/api/members?search=${encodeURIComponent(email)}`)
      ).json()) as {
        items: { id: string }[];
      }
    ).items;
    expect((await page.request.post(`/api/members/${id}/referral-link`)).status()).toBe(201);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/referral-links');
  await page.getByRole('button', { name: 'Email all links' }).click();
  const ask = page.getByRole('dialog', { name: 'Email 2 members their referral link?' });
  await expect(ask).toContainText('Each gets “Your referral link” from your business');
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: test.info().outputPath(`email-all-ask-${width}.png`) });
  }
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await page.getByRole('button', { name: 'Email all links' }).click();
  await page
    .getByRole('dialog', { name: 'Email 2 members their referral link?' })
    .getByRole('button', { name: 'Email 2 members' })
    .click();
  await expect(page.getByText('Referral links emailed to 2 members.')).toBeVisible();
  // Within the hour, nobody is left to email: it says so and sends nothing.
  await page.getByRole('button', { name: 'Email all links' }).click();
  const none = page.getByRole('dialog', { name: 'No member to email now' });
  await expect(none).toContainText('2 members were emailed it in the last hour and are skipped.');
  await none.getByRole('button', { name: 'OK' }).click();
  await expect(none).toBeHidden();
});
