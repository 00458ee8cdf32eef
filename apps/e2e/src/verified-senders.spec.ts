import { expect, type Page } from '@playwright/test';
import pg from 'pg';
import { recipient, type ParsedMail } from '@grove/testing-smtp';
import { groveDatabaseUrl, startGrove, type GroveServer } from './grove-server';
import { addMember, emailTo, journeySmtp, signUp, test as base } from './support';

const smtp = journeySmtp();

// The journeys' Grove runs with SENDER_VERIFICATION=false (playwright.config.ts: every journey
// signs up a new owner). This one needs it on, as in production: it runs against a Grove of its
// own (same build, own database, `startGrove`), which sends through the journey's SMTP server;
// one for the file's tests (a worker fixture: one start on a busy machine, not one per test).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, { verifyingGrove: GroveServer }>({
  verifyingGrove: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const grove = await startGrove({ SENDER_VERIFICATION: 'true' });
      await use(grove);
      await grove.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ verifyingGrove }, use) => use(verifyingGrove.url),
});

/** The verification emails to `address`, oldest first. */
const verifications = (address: string): ParsedMail[] =>
  smtp.emails.filter(
    (mail) => mail.subject === 'Verify your email for Grove' && recipient(mail) === address,
  );

/** The link of a verification email (`…/verify-email#token=…`). */
function verifyLinkIn(mail: ParsedMail | undefined): string {
  const link = /(https?:\/\/\S+\/verify-email#token=[A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  expect(link, 'a verification link in the email').toBeDefined();
  return link ?? '';
}

/**
 * Makes the owner's business as an account made before sign-up by email may be: its sender not
 * verified (a new owner's is verified by the sign-up link, docs/product.md#verified-senders).
 */
async function madeBeforeSignupByEmail(grove: GroveServer, email: string): Promise<void> {
  const client = new pg.Client(groveDatabaseUrl(grove.url));
  await client.connect();
  try {
    const updated = await client.query(
      `UPDATE businesses b SET sender_verified_at = NULL
         FROM users u WHERE u.business_id = b.id AND lower(u.email) = lower($1)`,
      [email],
    );
    expect(updated.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

async function shoot(page: Page, name: string) {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test("a new owner's emails go out at once (the sign-up link proved the address, no 'Verify your email')", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const owner = await signUp(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Branches' })).toBeVisible();
  await expect(page.locator('.dash-rights-banner')).toHaveCount(0);
  const member = { name: 'Ana-Sofía Pérez', email: `ana.sofia.${Date.now()}@example.es` };
  await addMember(page, { ...member, price: '80', discount: '10' });
  await page.goto('/referral-links');
  await page.getByRole('button', { name: 'Email all links' }).click();
  await page
    .getByRole('dialog', { name: 'Email 1 member their referral link?' })
    .getByRole('button', { name: 'Email 1 member' })
    .click();
  const mail = await emailTo(smtp, member.email, `Your referral link for ${owner.businessName}`);
  expect(mail.text).toContain('/referral/');
  // The sign-up's transaction would have queued it before the member's email: none was sent.
  expect(verifications(owner.email)).toEqual([]);
});

test("an owner not yet verified (an account made before sign-up by email): 'Email all links' waits until the owner verifies from the emailed link, then goes out (issue 34 item 4)", async ({
  page,
  verifyingGrove,
}) => {
  test.setTimeout(240_000);
  const owner = await signUp(page);
  await madeBeforeSignupByEmail(verifyingGrove, owner.email);

  const stamp = Date.now();
  const members = [
    { name: "Siobhán O'Brien", email: `siobhan.obrien.${stamp}@example.ie` },
    { name: 'Zoë D’Arcy-Nguyễn', email: `zoe.darcy.${stamp}@example.fr` },
  ];
  for (const member of members) await addMember(page, { ...member, price: '80', discount: '10' });

  // 'Email all links' asks, then the emails wait: Grove sends nothing for an unverified owner.
  await page.goto('/referral-links');
  await page.getByRole('button', { name: 'Email all links' }).click();
  await page
    .getByRole('dialog', { name: 'Email 2 members their referral link?' })
    .getByRole('button', { name: 'Email 2 members' })
    .click();
  const banner = page.locator('.dash-rights-banner');
  await expect(async () => {
    await page.goto('/dashboard');
    await expect(banner).toContainText('2 member emails wait and will go out once you verify.', {
      timeout: 10_000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(banner).toContainText('Please verify your email');
  await shoot(page, 'verify-banner');
  expect(verifications(owner.email)).toEqual([]);
  const subject = `Your referral link for ${owner.businessName}`;
  const memberMails = () =>
    smtp.emails.filter(
      (mail) =>
        mail.subject === subject && members.some((member) => recipient(mail) === member.email),
    );
  expect(memberMails()).toEqual([]);

  // The banner's 'Resend verification' sends a link.
  await banner.getByRole('button', { name: 'Resend verification' }).click();
  await expect(banner).toContainText('We sent you a new verification link. Check your inbox.');
  await expect.poll(() => verifications(owner.email).length, { timeout: 20_000 }).toBe(1);
  expect(memberMails()).toEqual([]);

  // The owner opens the link (nothing is used on load: a link scanner that runs the page does not
  // verify), presses 'Verify my email': verified, and the waiting emails go out.
  await page.goto(verifyLinkIn(verifications(owner.email)[0]));
  await expect(page).toHaveURL(`${verifyingGrove.url}/verify-email`);
  await shoot(page, 'verify');
  await page.getByRole('button', { name: 'Verify my email' }).click();
  await expect(
    page.getByText(
      'Your email is verified. Grove now sends the emails to your members that were waiting.',
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(`${verifyingGrove.url}/verify-email`);
  await shoot(page, 'verified');
  for (const member of members) {
    const mail = await emailTo(smtp, member.email, subject);
    expect(mail.text).toContain('/referral/');
  }

  // The banner is gone.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Branches' })).toBeVisible();
  await expect(banner).toHaveCount(0);
});
