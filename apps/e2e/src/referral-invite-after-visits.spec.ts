import { expect } from '@playwright/test';
import type { MemberRow, Page as ListPage, ReferralNudgeSettingsReply } from '@grove/contracts';
import { recipient } from '@grove/testing-smtp';
import { startGrove, type GroveServer } from './grove-server';
import { connectMindbody, journeySmtp, sandboxOrigin, signUp, test as base } from './support';

const smtp = journeySmtp();
const DAY = 86_400_000;

/**
 * Issue 33 item 5 in Chromium, "after their Nth visit": a Grove of its own whose nudges job runs
 * every minute (REFERRAL_NUDGES_CRON) with a Mindbody sandbox of 20 clients of its own
 * (tools/scripts/start.mjs starts one when MINDBODY_API_URL is unset), so one run checks every
 * member. Visits are recorded through the sandbox's control API (`POST /_sandbox/clients/{id}/visits`,
 * what the desk's sign-ins would leave in Mindbody).
 */
const test = base.extend<{ ownGrove: GroveServer }>({
  ownGrove: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const grove = await startGrove({
        REFERRAL_NUDGES_CRON: '* * * * *',
        MINDBODY_SANDBOX_CLIENTS: '20',
        // Unset: start.mjs starts the sandbox (startGrove points Grove at no Mindbody otherwise).
        MINDBODY_API_URL: undefined as unknown as string,
      });
      await use(grove);
      await grove.stop();
    },
    { timeout: 180_000 },
  ],
  baseURL: async ({ ownGrove }, use) => use(ownGrove.url),
});

test('an owner with Mindbody sees what the weekly visit checks cost, turns on "after 3 visits", and a member with 3 visits gets the invitation', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const owner = await signUp(page);
  const email = 'siobhan.visits@example.ie';
  // A client of the gym in Mindbody who came three times this week (and missed a fourth class).
  const sandbox = await sandboxOrigin(page);
  const added = await page.request.post(`${sandbox}/_sandbox/clients`, {
    data: { FirstName: 'Siobhán', LastName: "O'Brien", Email: email, NormalAutoPay: 80 },
  });
  expect(added.status()).toBe(201);
  const clientId = ((await added.json()) as { Id: string }).Id;
  for (const [daysAgo, flags] of [[2], [3], [4], [5, { SignedIn: false, Missed: true }]] as const) {
    const visit = await page.request.post(
      `${sandbox}/_sandbox/clients/${encodeURIComponent(clientId)}/visits`,
      { data: { StartDateTime: new Date(Date.now() - daysAgo * DAY).toISOString(), ...flags } },
    );
    expect(visit.status()).toBe(201);
  }
  await connectMindbody(page);
  const [member] = (
    (await (
      await page.request.get(`/api/members?search=${encodeURIComponent(email)}`)
    ).json()) as ListPage<MemberRow>
  ).items;
  expect(member?.memberName).toBe("Siobhán O'Brien");
  expect((await page.request.post(`/api/members/${member?.id}/referral-link`)).ok()).toBe(true);

  // Account Settings → Emails & sharing: the choice says what it costs, with this gym's figures.
  const reply = (await (
    await page.request.get('/api/settings/referral-nudges')
  ).json()) as ReferralNudgeSettingsReply;
  expect(reply.visitsAvailable).toBe(true);
  expect(reply.visitChecksPerWeek).toBeGreaterThanOrEqual(1);
  await page.goto('/dashboard/account-settings/emails');
  const visits = page.getByRole('radio', { name: 'after their Nth visit (visits from Mindbody)' });
  await visits.check();
  const calls = reply.visitChecksPerWeek.toLocaleString('en-AU');
  const members = reply.mindbodyMembers.toLocaleString('en-AU');
  await expect(
    page.getByText(
      `Grove checks each Mindbody member’s visits once a week: about ${calls} Mindbody calls a week for your ${members} members.`,
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Preview email' }).first().click();
  const subject = `Know someone who'd like ${owner.businessName}?`;
  await expect(
    page.getByTestId('nudge-preview-invite').getByText(`Subject: ${subject}`),
  ).toBeVisible();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await page.screenshot({
      path: test.info().outputPath(`invite-after-visits-${width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByRole('checkbox', { name: 'Invite members to refer' }).check();
  await page.getByLabel('After their visit number').fill('3');
  const card = page.locator('.dash-account__card', {
    has: page.getByRole('heading', { name: 'Asking members to refer' }),
  });
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(card.getByText('Saved', { exact: true })).toBeVisible();

  // The job runs every minute: Mindbody counts her 3 visits (the missed class is none), once.
  const invites = () =>
    smtp.emails.filter((mail) => mail.subject === subject && recipient(mail) === email);
  await expect.poll(() => invites().length, { timeout: 150_000, intervals: [2_000] }).toBe(1);
  const body = (invites()[0]?.text ?? '').replace(/\s+/g, ' ');
  expect(body).toContain(`You've been to ${owner.businessName} 3 times now.`);
  expect(body).toMatch(/\/referral\/[A-Za-z0-9_-]{16,}/);
});
