import { createHash } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import {
  ALREADY_VERIFIED_MESSAGE,
  EMAIL_VERIFIED_MESSAGE,
  VERIFICATION_INVALID_MESSAGE,
} from '@grove/contracts';
import { recipient, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { SIGNUP_CONFIRM_SUBJECT } from '../../platform/auth/signup-emails';
import { MemberEmails } from './member-emails.service';
import { jobScope } from '../../platform/database/business-scope';

/**
 * Verified senders (issue 34 item 4, docs/product.md#verified-senders) on PostgreSQL, through a
 * real SMTP server, with SENDER_VERIFICATION on and a daily cap of 3: a new owner's address is
 * proven by the emailed sign-up link (verified at once, no second link); an owner whose business's
 * sender is not verified (an account made before sign-up by email) has member emails wait until
 * they open the link from their email (hashed, single-use), then go out; past the cap they wait
 * for the next day; the owner sees why.
 */
describe('verified senders (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({
      SENDER_VERIFICATION: 'true',
      MEMBER_EMAIL_DAILY_CAP: '3',
      THROTTLE_PASSWORD_RESET_LIMIT: '1000',
    }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const mailsTo = (address: string): ParsedMail[] =>
    smtp.emails.filter(
      (mail) =>
        recipient(mail)?.toLowerCase() === address.toLowerCase() &&
        // Not the sign-up link every owner of these tests got first (docs/product.md#signup).
        mail.subject !== SIGNUP_CONFIRM_SUBJECT,
    );
  const tokenOf = (mail: ParsedMail): string => {
    const match = /\/verify-email#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    if (!match) throw new Error(`no verification link in: ${mail.text}`);
    return match[1];
  };
  async function members(owner: TestAgent, prefix: string, count: number): Promise<string[]> {
    const names = [
      "Siobhán O'Brien",
      "Zoë D'Arcy-Nguyễn",
      'Ana-Sofía Pérez',
      'Łukasz Wójcik',
      'Aroha Ngata',
    ];
    const emails: string[] = [];
    for (let i = 0; i < count; i++) {
      const email = `${prefix}${i}.${process.pid}@example.com`;
      await owner
        .post('/api/members')
        .send(treeBody(names[i % names.length], email))
        .expect(201);
      emails.push(email);
    }
    return emails;
  }
  const sending = async (owner: TestAgent) =>
    (await owner.get('/api/member-emails/sending').expect(200)).body;
  /** The business as an account made before sign-up by email may be: its sender not verified. */
  const madeBeforeSignupByEmail = (businessId: string) =>
    t.dataSource.query(`UPDATE businesses SET sender_verified_at = NULL WHERE id = $1`, [
      businessId,
    ]);

  it("a new owner's address is proven by the sign-up link: verified at once, no 'Verify your email' link, member emails go out", async () => {
    const { agent: owner, body } = await t.signUp({ businessName: 'Aroha Fitness' });
    expect(await sending(owner)).toMatchObject({ senderVerified: true, waitingForVerification: 0 });
    const addresses = await members(owner, 'new', 2);
    await owner.post('/api/referral-links/email').expect(202);
    for (const address of addresses) await waitFor(async () => mailsTo(address)[0]);
    expect(mailsTo(body.email).map((mail) => mail.subject)).toEqual([]);
    const resend = await owner.post('/api/account/email-verification').expect(409);
    expect(resend.body.message).toBe(ALREADY_VERIFIED_MESSAGE);
  });

  it("holds an unverified owner's 'Email all links' until the owner verifies, then sends them", async () => {
    const { agent: owner, body, user } = await t.signUp({ businessName: "Siobhán's Studio" });
    await madeBeforeSignupByEmail(user.business.id);
    await owner.post('/api/account/email-verification').expect(202);
    const link = await waitFor(async () => mailsTo(body.email)[0]);
    expect(link.subject).toBe('Verify your email for Grove');
    const token = tokenOf(link);
    const [stored] = await t.dataSource.query(
      `SELECT token_hash FROM email_verifications WHERE token_hash = $1`,
      [createHash('sha256').update(token).digest('hex')],
    );
    expect(stored).toBeDefined();

    const addresses = await members(owner, 'held', 2);
    await owner.post('/api/referral-links/email').expect(202);
    await waitFor(async () =>
      (await sending(owner)).waitingForVerification === 2 ? true : undefined,
    );
    expect(await sending(owner)).toMatchObject({ senderVerified: false, waitingForTomorrow: 0 });
    for (const address of addresses) expect(mailsTo(address)).toEqual([]);

    // Bad links change nothing.
    for (const bad of ['', 'x'.repeat(30), 12]) {
      const refused = await t.agent().post('/api/auth/verify-email').send({ token: bad });
      expect([bad, refused.status, refused.body]).toEqual([
        bad,
        400,
        expect.objectContaining({ message: VERIFICATION_INVALID_MESSAGE }),
      ]);
    }
    expect((await sending(owner)).senderVerified).toBe(false);

    const verified = await t.agent().post('/api/auth/verify-email').send({ token }).expect(200);
    expect(verified.body.message).toBe(EMAIL_VERIFIED_MESSAGE);
    for (const address of addresses) await waitFor(async () => mailsTo(address)[0]);
    expect(await sending(owner)).toMatchObject({ senderVerified: true, waitingForVerification: 0 });
    const again = await t.agent().post('/api/auth/verify-email').send({ token }).expect(400);
    expect(again.body.message).toBe(VERIFICATION_INVALID_MESSAGE);
    const resend = await owner.post('/api/account/email-verification').expect(409);
    expect(resend.body.message).toBe(ALREADY_VERIFIED_MESSAGE);
  });

  it('sends a new link on request; another business stays unverified', async () => {
    const { agent: owner, body, user } = await t.signUp();
    const { agent: other, user: otherUser } = await t.signUp();
    await madeBeforeSignupByEmail(user.business.id);
    await madeBeforeSignupByEmail(otherUser.business.id);
    await owner.post('/api/account/email-verification').expect(202);
    await waitFor(async () => mailsTo(body.email)[0]);
    await owner.post('/api/account/email-verification').expect(202);
    const second = await waitFor(async () => mailsTo(body.email)[1]);
    await t
      .agent()
      .post('/api/auth/verify-email')
      .send({ token: tokenOf(second) })
      .expect(200);
    expect((await sending(owner)).senderVerified).toBe(true);
    expect((await sending(other)).senderVerified).toBe(false);
    await t.agent().post('/api/account/email-verification').expect(401);
  });

  it('past the daily cap, emails wait for the next day and the owner is told', async () => {
    const { agent: owner, user } = await t.signUp();
    const addresses = await members(owner, 'capped', 5);
    await owner.post('/api/referral-links/email').expect(202);
    await waitFor(async () => {
      const now = await sending(owner);
      return now.deliveredToday === 3 && now.waitingForTomorrow === 2 ? now : undefined;
    });
    expect(addresses.filter((address) => mailsTo(address).length > 0)).toHaveLength(3);
    // The next day (as the hourly release sees it): yesterday's count no longer holds them back.
    await t.dataSource.query(
      `UPDATE member_emails SET delivered_at = delivered_at - interval '1 day' WHERE business_id = $1 AND status = 'sent'`,
      [user.business.id],
    );
    expect(await t.app.get(MemberEmails).release(jobScope({ businessId: user.business.id }))).toBe(
      2,
    );
    for (const address of addresses) await waitFor(async () => mailsTo(address)[0]);
  });
});
