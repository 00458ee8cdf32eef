import { expect } from '@playwright/test';
import pg from 'pg';
import { recipient } from '@grove/testing-smtp';
import { freePort, startGrove, type GroveServer } from './grove-server';
import { addMember, journeySmtp, signUp, test as base } from './support';

const smtp = journeySmtp();

/**
 * Issue 33 item 5 in Chromium: a Grove of its own whose nudges job runs every minute
 * (REFERRAL_NUDGES_CRON), on an embedded database this journey reaches directly, only to make a
 * member "joined 31 days ago" (Grove has no screen to back-date a member).
 */
const test = base.extend<{ ownGrove: GroveServer & { db: string } }>({
  ownGrove: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dbPort = await freePort();
      const grove = await startGrove({
        REFERRAL_NUDGES_CRON: '* * * * *',
        GROVE_DB_PORT: String(dbPort),
      });
      await use({ ...grove, db: `postgres://postgres:grove@127.0.0.1:${dbPort}/grove` });
      await grove.stop();
    },
    { timeout: 180_000 },
  ],
  baseURL: async ({ ownGrove }, use) => use(ownGrove.url),
});

/** Runs one statement on the journey's Grove database. */
async function sql(url: string, text: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

test('the owner switches on the 30-day invitation after its preview; a member of 31 days gets it once, and its unsubscribe link works', async ({
  page,
  browser,
  ownGrove,
}) => {
  test.setTimeout(300_000);
  const owner = await signUp(page);
  const subject = `Know someone who'd like ${owner.businessName}?`;
  await addMember(page, {
    name: "Siobhán O'Brien",
    email: 'siobhan.obrien@example.ie',
    price: '80',
    discount: '10',
  });
  await addMember(page, {
    name: 'Zoë D’Arcy-Nguyễn',
    email: 'zoe.darcy@example.fr',
    price: '80',
    discount: '10',
  });
  await sql(
    ownGrove.db,
    `UPDATE members SET created_at = now() - interval '31 days' WHERE email = 'siobhan.obrien@example.ie'`,
  );

  // Account Settings → Emails & sharing: the invitation can be switched on only after its preview.
  await page.goto('/dashboard/account-settings/emails');
  const invite = page.getByRole('checkbox', { name: 'Invite members to refer' });
  await expect(invite).toBeDisabled();
  await page.getByRole('button', { name: 'Preview email' }).first().click();
  const preview = page.getByTestId('nudge-preview-invite');
  await expect(preview.getByText(`Subject: ${subject}`)).toBeVisible();
  await expect(preview.getByText("The email Siobhán O'Brien would get")).toBeVisible();
  await expect(
    page.frameLocator('.dash-nudges__frame').getByText('lowers your price by $10.00 a month'),
  ).toBeVisible();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // The preview reads on a phone too (the frame's own text, not only its box).
    await expect(page.frameLocator('.dash-nudges__frame').getByText('Hi Siobhán,')).toBeVisible();
    await page.screenshot({
      path: test.info().outputPath(`referral-nudges-${width}.png`),
      fullPage: true,
    });
  }
  await invite.check();
  await expect(page.getByLabel('Days after they joined')).toHaveValue('30');
  const card = page.locator('.dash-account__card', {
    has: page.getByRole('heading', { name: 'Asking members to refer' }),
  });
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(card.getByText('Saved', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Invite members to refer' })).toBeChecked();

  // The job runs every minute: Siobhán (31 days) gets the invitation, Zoë (today) does not.
  const invites = () => smtp.emails.filter((mail) => mail.subject === subject);
  await expect.poll(() => invites().length, { timeout: 150_000, intervals: [2_000] }).toBe(1);
  const mail = invites()[0];
  expect(recipient(mail)).toBe('siobhan.obrien@example.ie');
  const body = (mail?.text ?? '').replace(/\s+/g, ' ');
  expect(body).toContain(`You've been with ${owner.businessName} for 31 days.`);
  expect(body).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}/);

  // Once: after two more runs of the job, still one invitation.
  const runs = async () =>
    Number(
      (
        (await sql(
          ownGrove.db,
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'referral-nudges.send' AND state = 'completed'`,
        )) as { n: number }[]
      )[0]?.n ?? 0,
    );
  const before = await runs();
  await expect
    .poll(runs, { timeout: 150_000, intervals: [5_000] })
    .toBeGreaterThanOrEqual(before + 2);
  expect(invites()).toHaveLength(1);

  // The email's unsubscribe link: the page asks, the member confirms, and it is done.
  const unsubscribe = /https?:\/\/\S+?(\/api\/member-emails\/unsubscribe\/[A-Za-z0-9_-]{43})/.exec(
    mail?.text ?? '',
  )?.[1];
  expect(unsubscribe, 'an unsubscribe link in the invitation').toBeDefined();
  const memberContext = await browser.newContext({ baseURL: ownGrove.url });
  const member = await memberContext.newPage();
  await member.goto(unsubscribe ?? '');
  await expect(member).toHaveURL(/\/member\/unsubscribe\/[A-Za-z0-9_-]{43}$/);
  await member.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(
    member.getByText('You will no longer receive emails about your referrals.'),
  ).toBeVisible();
  await member.reload();
  await expect(
    member.getByText('You will no longer receive emails about your referrals.'),
  ).toBeVisible();
  await memberContext.close();
  expect(smtp.emails.filter((email) => recipient(email) === 'zoe.darcy@example.fr')).toEqual([]);
});
