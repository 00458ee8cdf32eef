import type TestAgent from 'supertest/lib/agent';
import type { MemberRow, MindbodyBillChanges, MindbodyStatus, Page } from '@grove/contracts';
import { recipient, type SmtpCatcher } from '@grove/testing-smtp';
import type { TestApp } from '../../../../../test/test-app';
import { createMailTestApp } from '../../../../../test/member-mail';
import {
  confirmedSync,
  deliverWebhook,
  mindbodyStatus,
  reachStageFour,
  referThroughGrove,
  sandboxEnv,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';
import { waitFor } from '../../../../../test/stub-servers';
import { freePort } from '../../../../../test/local-daemon';
import { SIGNUP_CONFIRM_SUBJECT } from '../../../platform/auth/signup-emails';

jest.setTimeout(180_000);

/** The other business's own site (a Mindbody site belongs to one business). */
const OTHER_SITE = '-97';
const OWNER_EMAIL = 'siobhan.oconnor@example.com';
const OTHER_OWNER_EMAIL = 'other.owner@example.com';
const SUBJECT = '1 bill would change in Mindbody: review';

/**
 * Issue 31 item 2: no bill changes unconfirmed, ever. A sync a Mindbody webhook queues reads and
 * stores what changed, then holds the autopay writes it would make for the owner: the wizard's
 * status says how many bills would change (`pendingBills`), the owners get one email with the link
 * to review them, and nothing reaches Mindbody until the owner confirms the preview (the issue 25
 * preview and fingerprint). Real PostgreSQL, the Mindbody sandbox and a real SMTP server; the
 * subscription is stopped at the sandbox once active, so the only deliveries are those the test
 * posts (signed with the subscription's key).
 */
describe('Mindbody: a webhook’s sync holds its bill changes until the owner confirms (integration, sandbox + SMTP)', () => {
  let sandbox: RunningSandbox;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let owner: TestAgent;
  let other: TestAgent;
  let origin: string;
  let ritaClientId: string;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({
      port: 0,
      clientCount: 20,
      webhookAttempts: 1,
      sites: [{ siteId: OTHER_SITE, clientCount: 5, activated: true }],
    });
    // Mindbody activates a subscription only after its webhook URL answers a HEAD request.
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    ({ t, smtp } = await createMailTestApp({ ...sandboxEnv(sandbox), PUBLIC_ORIGIN: origin }));
    await t.app.listen(port, '127.0.0.1');
    owner = (
      await t.signUp({
        businessName: 'O’Connor’s Gym',
        firstName: 'Siobhán',
        lastName: 'O’Connor',
        email: OWNER_EMAIL,
      })
    ).agent;
    other = (await t.signUp({ businessName: 'Other Gym', email: OTHER_OWNER_EMAIL })).agent;
    ritaClientId = sandbox.control.addClient({
      FirstName: 'Rita',
      LastName: 'D’Arcy',
      Email: 'rita.darcy@example.com',
      NormalAutoPay: 100,
      ReferredBy: 'Friend',
    }).Id;
    await reachStageFour(owner, sandbox, {
      discountOnReferralCents: 500,
      discountForRefereeCents: 0,
    });
    // No real deliveries: the test posts each one itself.
    for (const { subscriptionId } of sandbox.control.subscriptions())
      sandbox.control.deactivateSubscription(subscriptionId, 'DeactivatedByUser');
    // Rita refers Zoë through her Grove link; the front desk creates Zoë; the owner's confirmed
    // sync counts the branch and writes Rita's bill: $100 − $5.
    const rita = (
      (await owner.get('/api/members?search=Rita&pageSize=100').expect(200)).body as Page<MemberRow>
    ).items.find((row) => row.memberName === 'Rita D’Arcy');
    if (!rita) throw new Error('Rita was not imported');
    await referThroughGrove(owner, t, sandbox, rita.id, {
      name: 'Zoë Friend',
      email: 'zoe.friend@example.com',
      autopay: 80,
    });
    await confirmedSync(owner);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    expect(ritaAutopay()).toBe(95);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await sandbox.close();
  });

  /** Rita's autopay in Mindbody, dollars. */
  const ritaAutopay = () =>
    sandbox.control.contracts(ritaClientId).find((contract) => contract.AutopayStatus === 'Active')
      ?.NormalAutoPay;
  const emailsWith = (to: string, subject: string) =>
    smtp.emails.filter((mail) => recipient(mail) === to && mail.subject === subject);
  /** Every queued email has been handed to SMTP (none waiting, retrying or being sent). */
  const mailQueueEmpty = async () => {
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM pgboss.job
       WHERE name = 'mail.send' AND state IN ('created', 'retry', 'active')`,
    )) as { n: number }[];
    return n === 0;
  };
  /** Posts a `client.updated` delivery (Rita edited her profile) and waits for the sync it queues to end. */
  async function profileEdited(messageId: string): Promise<MindbodyStatus> {
    const before = (await mindbodyStatus(owner)).lastSyncAt;
    const reply = await deliverWebhook(t, sandbox, {
      messageId,
      eventId: 'client.updated',
      clientId: ritaClientId,
    });
    expect(reply.status).toBe(204);
    return waitFor(async () => {
      const status = await mindbodyStatus(owner);
      return status.processState !== 'running' && status.lastSyncAt !== before && status;
    }, 60_000);
  }

  it('a webhook after a discount change writes nothing until confirmed: the change waits, the owner is emailed once, confirming writes it', async () => {
    const writesBefore = sandbox.control.autopayWrites().length;
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1000, discountForRefereeCents: 0 })
      .expect(200);
    expect((await mindbodyStatus(owner)).pendingBills).toBeUndefined();

    // Rita edits her own profile in Mindbody: the delivery's sync reads and stores, writes nothing.
    const held = await profileEdited('profile-edit-1');
    expect(held.processState).toMatch(/^completed /);
    expect(held.pendingBills).toEqual({ count: 1, since: expect.any(String) });
    expect(sandbox.control.autopayWrites()).toHaveLength(writesBefore);
    expect(ritaAutopay()).toBe(95);
    const [mail] = await waitFor(async () => {
      const found = emailsWith(OWNER_EMAIL, SUBJECT);
      return found.length > 0 && found;
    });
    expect(mail.text).toContain('Hello Siobhán,');
    expect(mail.text).toContain('Grove has not changed any bill');
    expect(mail.text).toContain(`Review them: ${origin}/mindbody-setup`);
    // The review lists the held change, old → new.
    const preview = (await owner.get('/api/mindbody/sync/preview').expect(200))
      .body as MindbodyBillChanges;
    expect(preview).toMatchObject({
      total: 1,
      items: [{ name: 'Rita D’Arcy', currentCents: 9500, newCents: 9000, differenceCents: -500 }],
    });

    // A second delivery while the change waits: still nothing written, no second email.
    const again = await profileEdited('profile-edit-2');
    expect(again.pendingBills).toEqual(held.pendingBills);
    await waitFor(mailQueueEmpty);
    expect(emailsWith(OWNER_EMAIL, SUBJECT)).toHaveLength(1);
    expect(sandbox.control.autopayWrites()).toHaveLength(writesBefore);
    expect(ritaAutopay()).toBe(95);

    // The owner confirms what they reviewed: the sync writes it, and nothing waits any more.
    const confirmed = await confirmedSync(owner);
    expect(confirmed.fingerprint).toBe(preview.fingerprint);
    const done = await settled(owner);
    expect(done.processState).toMatch(/^completed /);
    expect(done.lastSyncBillsWritten).toBe(1);
    expect(done.pendingBills).toBeUndefined();
    expect(ritaAutopay()).toBe(90);
    expect(sandbox.control.autopayWrites().slice(writesBefore)).toEqual([
      expect.objectContaining({ ClientId: ritaClientId, Amount: 90 }),
    ]);
  });

  it('a webhook that finds no bill to change holds nothing and emails nobody', async () => {
    const writesBefore = sandbox.control.autopayWrites().length;
    const status = await profileEdited('profile-edit-3');
    expect(status.pendingBills).toBeUndefined();
    await waitFor(mailQueueEmpty);
    expect(emailsWith(OWNER_EMAIL, SUBJECT)).toHaveLength(1);
    expect(sandbox.control.autopayWrites()).toHaveLength(writesBefore);
  });

  it('tenant isolation: another business neither sees the held changes nor can confirm them, and is not emailed', async () => {
    await reachStageFour(
      other,
      sandbox,
      { discountOnReferralCents: 700, discountForRefereeCents: 0 },
      OTHER_SITE,
    );
    await owner
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 1500, discountForRefereeCents: 0 })
      .expect(200);
    const writesBefore = sandbox.control.autopayWrites().length;
    const held = await profileEdited('profile-edit-4');
    expect(held.pendingBills).toEqual({ count: 1, since: expect.any(String) });
    const ownerPreview = (await owner.get('/api/mindbody/sync/preview').expect(200))
      .body as MindbodyBillChanges;

    expect((await mindbodyStatus(other)).pendingBills).toBeUndefined();
    expect(
      ((await other.get('/api/mindbody/sync/preview').expect(200)).body as MindbodyBillChanges)
        .total,
    ).toBe(0);
    // The owner's fingerprint is no confirmation of the other business's (empty) preview.
    await other.post('/api/mindbody/sync').send({ confirm: ownerPreview.fingerprint }).expect(409);
    expect(sandbox.control.autopayWrites()).toHaveLength(writesBefore);
    expect(ritaAutopay()).toBe(90);
    expect((await mindbodyStatus(owner)).pendingBills).toEqual(held.pendingBills);
    await waitFor(mailQueueEmpty);
    // Nothing but the sign-up link it got when it signed up (docs/product.md#signup).
    expect(
      smtp.emails
        .filter((mail) => recipient(mail) === OTHER_OWNER_EMAIL)
        .map((mail) => mail.subject),
    ).toEqual([SIGNUP_CONFIRM_SUBJECT]);
  });
});
