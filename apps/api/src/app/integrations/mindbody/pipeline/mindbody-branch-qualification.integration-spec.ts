import type TestAgent from 'supertest/lib/agent';
import type { ClientPurchaseRecord } from '@grove/api-mindbody';
import { MESSAGES, type MemberRow, type Page, type ReferralLink } from '@grove/contracts';
import type { TestApp } from '../../../../../test/test-app';
import { createMailTestApp, memberEmailsSettled } from '../../../../../test/member-mail';
import {
  confirmedSync,
  deliverWebhook,
  mindbodyStatus,
  reachStageFour,
  requests,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';
import { recipient, type SmtpCatcher } from '@grove/testing-smtp';
import { waitFor } from '../../../../../test/stub-servers';
import { freePort } from '../../../../../test/local-daemon';
import { expectLedgersChained, ledgerOf } from '../../../../../test/lifecycle-facts';

jest.setTimeout(180_000);

/** Seeded clients besides the people of the story below. */
const SEEDED = 60;
const RITA = 'rita@example.com';
/** The business's discounts: $10 off per counting branch, nothing off the friend's own bill. */
const TEN_DOLLARS = { discountOnReferralCents: 1000, discountForRefereeCents: 0 };
/**
 * The other business's own site (a Mindbody site belongs to one business, issue 31), where the
 * same people are clients with the same ReferredBy labels.
 */
const OTHER_SITE = '-97';
/** Rita's friends and their autopays (dollars). */
const FRIENDS = [
  ['Fred Friend', 80],
  ['Wendy Webhook', 90],
  ['Paula Paid', 70],
  ['Sue Suspend', 60],
  ['Ed Ended', 50],
] as const;

interface BranchState {
  name: string;
  referred_by_id: string | null;
  counting: boolean;
  first_paid_at: Date | null;
  suspended: boolean;
}

/**
 * A business whose rule is "(Mindbody) after the friend's first paid autopay or sale"
 * (docs/product.md#branch-qualification), against the real Mindbody sandbox and a real SMTP
 * server: Rita (autopay $100, discount on referral $10) has five friends. A friend who has not paid
 * is pending; the sandbox records their payment and the next sync starts them counting (Rita's
 * autopay drops in Mindbody, one 'branch_counting' ledger line, one email); a suspension lapses a
 * branch and resuming counts it again; an ended membership returns the price once. The API listens
 * only for Mindbody's HEAD check of the webhook URL (activation); the subscription is then stopped
 * at the sandbox, so every change reaches Grove by the sync the test runs (or a delivery the test
 * posts, signed with the subscription's key).
 */
describe('Mindbody first payment and suspension: when a branch counts (integration, sandbox + SMTP)', () => {
  let sandbox: RunningSandbox;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;
  let ritaId: string;
  const clientIds = new Map<string, string>();

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({
      port: 0,
      clientCount: SEEDED,
      webhookAttempts: 1,
      sites: [{ siteId: OTHER_SITE, clientCount: 10, activated: true }],
    });
    // Mindbody activates a subscription only after its webhook URL answers a HEAD request.
    const port = await freePort();
    ({ t, smtp } = await createMailTestApp({
      ...sandboxEnv(sandbox),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    }));
    await t.app.listen(port, '127.0.0.1');
    const signed = await t.signUp({ businessName: 'Paid Gym' });
    owner = signed.agent;
    businessId = signed.user.business.id;
    const add = (name: string, email: string, autopay: number) => {
      const [FirstName, LastName] = name.split(' ');
      const client = sandbox.control.addClient({
        FirstName,
        LastName,
        Email: email,
        NormalAutoPay: autopay,
        // A referral-source label, as Mindbody stores it: it links nobody.
        ReferredBy: 'Friend',
      });
      clientIds.set(name, client.Id);
      return client.Id;
    };
    add('Rita Referrer', RITA, 100);
    await owner
      .put('/api/settings/branches')
      .send({ rule: 'first_payment', days: null })
      .expect(200);
    await reachStageFour(owner, sandbox, TEN_DOLLARS);
    // No real deliveries: the test runs each sync (or posts a delivery) itself.
    for (const { subscriptionId } of sandbox.control.subscriptions())
      sandbox.control.deactivateSubscription(subscriptionId, 'DeactivatedByUser');
    ritaId = (await member('Rita Referrer')).id;
    // Grove's own referral loop: each friend joins through Rita's link and the owner approves them…
    const link = (await owner.post(`/api/members/${ritaId}/referral-link`).expect(201))
      .body as ReferralLink;
    for (const [name, autopay] of FRIENDS) {
      const email = `${name.split(' ')[0].toLowerCase()}@example.com`;
      await t.agent().post(`/api/referrals/${link.code}/join`).send({ name, email }).expect(201);
      const queued = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<{
        id: string;
        email: string;
      }>;
      const prospect = queued.items.find((item) => item.email === email);
      await owner
        .post(`/api/prospects/${prospect?.id}/approve`)
        .send({
          memberName: name,
          memberEmail: email,
          membershipPriceCents: Math.round(autopay * 100),
          discountCents: 1000,
        })
        .expect(201);
    }
    // …then each becomes a client at the front desk in Mindbody (same email); three have paid.
    for (const [name, autopay] of FRIENDS) {
      const id = add(name, `${name.split(' ')[0].toLowerCase()}@example.com`, autopay);
      if (['Paula Paid', 'Sue Suspend', 'Ed Ended'].includes(name))
        sandbox.control.recordPayment(id, { SaleDateTime: '2026-02-01T10:00:00Z' });
    }
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await sandbox.close();
  });

  /** The business's member row of `name` (Branches screen). */
  async function member(name: string, agent = owner): Promise<MemberRow> {
    const page = (
      await agent.get(`/api/members?search=${encodeURIComponent(name)}&pageSize=100`).expect(200)
    ).body as Page<MemberRow>;
    const row = page.items.find((item) => item.memberName === name);
    if (!row) throw new Error(`no member ${name}`);
    return row;
  }
  async function branch(name: string): Promise<BranchState> {
    const [row] = (await t.dataSource.query(
      `SELECT name, referred_by_id, branch_counting_since IS NOT NULL AND branch_lapsed_at IS NULL
                AND mindbody_suspended_at IS NULL AND mindbody_cancelled_at IS NULL AS counting,
              mindbody_first_paid_at AS first_paid_at, mindbody_suspended_at IS NOT NULL AS suspended
       FROM members WHERE business_id = $1 AND name = $2`,
      [businessId, name],
    )) as BranchState[];
    return row;
  }
  /** Rita's autopay in Mindbody, dollars. */
  const ritaAutopay = () =>
    sandbox.control
      .contracts(clientIds.get('Rita Referrer') ?? '')
      .find((contract) => contract.AutopayStatus === 'Active')?.NormalAutoPay;
  /** Branches the next sync asks Mindbody about: pending, no first payment known, running. */
  const candidates = async (): Promise<number> => {
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM members WHERE business_id = $1 AND referred_by_id IS NOT NULL
         AND branch_counting_since IS NULL AND mindbody_first_paid_at IS NULL
         AND mindbody_cancelled_at IS NULL AND mindbody_suspended_at IS NULL`,
      [businessId],
    )) as { n: number }[];
    return n;
  };
  /** Runs a sync; returns the `GET /client/clientpurchases` requests it made. */
  async function sync(): Promise<number> {
    const before = requests(sandbox, '/client/clientpurchases');
    await confirmedSync(owner);
    expect((await settled(owner)).processState).toMatch(/^completed /);
    return requests(sandbox, '/client/clientpurchases') - before;
  }
  const mailsSettled = () => memberEmailsSettled(t);
  /**
   * Rita's emails about her branches and price. A friend's "joined with your link" email is left
   * out: whether the join's follow-up job runs before the owner's approval (email) or after it (no
   * email, the prospect is gone) depends on how busy the machine is, not on what this tests.
   */
  const ritaMails = (): string[] =>
    smtp.emails
      .filter((mail) => recipient(mail) === RITA)
      .map((mail) => mail.subject ?? '')
      .filter((subject) => !subject.endsWith('joined with your link'));
  const ritaLedger = () => ledgerOf(t, businessId, ritaId);
  /** Rita's last ledger line: `reason`, old → new (cents), caused by branch `branchId`. */
  async function expectRitaLine(
    reason: string,
    oldCents: number,
    newCents: number,
    branchId: string,
  ): Promise<void> {
    expect((await ritaLedger()).at(-1)).toEqual({
      reason,
      old_price_cents: oldCents,
      new_price_cents: newCents,
      membership_price_cents: 10_000,
      branch_id: branchId,
    });
  }
  const lineCount = async () => {
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM price_changes WHERE business_id = $1`,
      [businessId],
    )) as { n: number }[];
    return n;
  };

  it('friends approved through Rita’s Grove link and later created at the front desk: the first sync matches each by email and keeps it as her branch; one who has not paid is Pending and lowers nothing, those who paid count: Rita’s autopay drops to $70', async () => {
    // Before the sync they are Grove's rows only: Rita's branches, none counting yet (nothing in
    // Mindbody to bill for them).
    for (const [name] of FRIENDS) {
      expect((await member(name)).managedByIntegration).toBeNull();
      expect(await branch(name)).toMatchObject({ referred_by_id: ritaId, counting: false });
    }
    expect(ritaAutopay()).toBe(100);

    // The sync asks Mindbody about each new pending branch once.
    expect(await sync()).toBe(FRIENDS.length);
    for (const [name] of FRIENDS) {
      expect((await member(name)).managedByIntegration).toBe('Mindbody');
      expect((await branch(name)).referred_by_id).toBe(ritaId);
    }
    expect((await member('Fred Friend')).status).toBe('Pending');
    expect((await member('Wendy Webhook')).status).toBe('Pending');
    for (const name of ['Paula Paid', 'Sue Suspend', 'Ed Ended'])
      expect((await member(name)).status).toBe('Active');
    expect((await branch('Paula Paid')).first_paid_at?.toISOString()).toBe(
      '2026-02-01T10:00:00.000Z',
    );
    expect((await branch('Fred Friend')).first_paid_at).toBeNull();
    expect((await member('Rita Referrer')).branches).toBe(3);
    expect(ritaAutopay()).toBe(70);
    expect((await ritaLedger()).at(-1)).toMatchObject({ new_price_cents: 7_000 });
    await mailsSettled();
    // Each friend who counts is news to Rita, once.
    expect(
      ritaMails()
        .map((subject) => subject.split(' is now your branch')[0])
        .sort(),
    ).toEqual(['Ed Ended', 'Paula Paid', 'Sue Suspend']);
    // Only Fred and Wendy are left to ask about.
    expect(await candidates()).toBe(2);
  });

  it('the sandbox records Fred’s first payment; the next sync starts him counting: Rita’s autopay drops to $60, one branch_counting line, one email; a sync after it changes nothing', async () => {
    const fred = clientIds.get('Fred Friend') ?? '';
    const paid = sandbox.control.recordPayment(fred) as ClientPurchaseRecord;
    expect(paid.AmountPaid).toBe(80);
    const pending = await candidates();

    expect(await sync()).toBe(pending);

    expect((await member('Fred Friend')).status).toBe('Active');
    expect((await branch('Fred Friend')).first_paid_at?.toISOString()).toBe(paid.Sale.SaleDateTime);
    expect(ritaAutopay()).toBe(60);
    await expectRitaLine('branch_counting', 7_000, 6_000, (await member('Fred Friend')).id);
    await mailsSettled();
    expect(ritaMails().slice(3)).toEqual([
      'Fred Friend is now your branch: your price is now $60.00',
    ]);

    const lines = await lineCount();
    sandbox.control.clearAutopayWrites();
    // Fred is no longer asked about.
    expect(await sync()).toBe(pending - 1);
    await mailsSettled();
    expect(await lineCount()).toBe(lines);
    expect(sandbox.control.autopayWrites()).toEqual([]);
    expect(ritaMails()).toHaveLength(4);
    await expectLedgersChained(t, businessId);
  });

  it('a clientSale.created delivery stores Wendy’s first payment; the sync it queues starts her counting without asking Mindbody about her; a replay and a later sale change nothing', async () => {
    const wendy = clientIds.get('Wendy Webhook') ?? '';
    const sale = sandbox.control.recordPayment(wendy) as ClientPurchaseRecord;
    const saleEvent = {
      saleId: sale.Sale.Id,
      purchasingClientId: wendy,
      saleDateTime: sale.Sale.SaleDateTime,
      totalAmountPaid: sale.AmountPaid,
    };
    const asked = requests(sandbox, '/client/clientpurchases');
    const pending = await candidates();
    const reply = await deliverWebhook(t, sandbox, {
      messageId: 'sale-wendy-1',
      eventId: 'clientSale.created',
      clientId: wendy,
      eventData: saleEvent,
    });
    expect(reply.status).toBe(204);
    await waitFor(async () => (await member('Wendy Webhook')).status === 'Active', 60_000);
    await settled(owner);
    // The queued sync asked about the other pending branches only.
    expect(requests(sandbox, '/client/clientpurchases') - asked).toBe(pending - 1);
    // Issue 31: it holds Rita's new bill for the owner; confirming writes it.
    expect(ritaAutopay()).toBe(60);
    expect((await mindbodyStatus(owner)).pendingBills?.count).toBe(1);
    // The webhook's own sync tells Rita (its branch refresh queues the email), before any
    // sync the owner starts; the confirmed sync then sends nothing more.
    await mailsSettled();
    const toldBy = ritaMails().length;
    expect(ritaMails().at(-1)).toBe('Wendy Webhook is now your branch: your price is now $50.00');
    await sync();
    expect(ritaAutopay()).toBe(50);
    expect((await ritaLedger()).at(-1)).toMatchObject({
      reason: 'branch_counting',
      old_price_cents: 6_000,
      new_price_cents: 5_000,
    });
    await mailsSettled();
    expect(ritaMails()).toHaveLength(toldBy);

    const lines = await lineCount();
    expect(
      (
        await deliverWebhook(t, sandbox, {
          messageId: 'sale-wendy-1',
          eventId: 'clientSale.created',
          clientId: wendy,
          eventData: saleEvent,
        })
      ).status,
    ).toBe(204);
    const later = { ...saleEvent, saleId: saleEvent.saleId + 1000 };
    later.saleDateTime = new Date(Date.parse(sale.Sale.SaleDateTime) + 86_400_000).toISOString();
    await deliverWebhook(t, sandbox, {
      messageId: 'sale-wendy-2',
      eventId: 'clientSale.created',
      clientId: wendy,
      eventData: later,
    }).then((delivery) => expect(delivery.status).toBe(204));
    expect((await branch('Wendy Webhook')).first_paid_at?.toISOString()).toBe(
      sale.Sale.SaleDateTime,
    );
    await settled(owner);
    await mailsSettled();
    expect(await lineCount()).toBe(lines);
    expect(ritaMails()).toHaveLength(5);
  });

  it('suspended in Mindbody: the sync lapses Sue (still Rita’s branch, Suspended), Rita pays $60 again with one branch_lapsed line and one email; resumed (clientContract.updated), she counts again', async () => {
    const sue = clientIds.get('Sue Suspend') ?? '';
    const sueId = (await member('Sue Suspend')).id;
    expect(sandbox.control.suspendMembership(sue)).toBeDefined();
    await sync();

    expect((await member('Sue Suspend')).status).toBe('Suspended');
    expect(await branch('Sue Suspend')).toMatchObject({
      referred_by_id: ritaId,
      counting: false,
      suspended: true,
    });
    expect(ritaAutopay()).toBe(60);
    await expectRitaLine('branch_lapsed', 5_000, 6_000, sueId);
    await mailsSettled();
    expect(ritaMails().at(-1)).toBe('Sue Suspend’s membership ended: your price is back to $60.00');
    const mails = ritaMails().length;
    const lines = await lineCount();
    await sync();
    await mailsSettled();
    expect(await lineCount()).toBe(lines);
    expect(ritaMails()).toHaveLength(mails);

    // Resumed: Mindbody's clientContract.updated delivery queues the sync that sees it.
    const contract = sandbox.control.resumeMembership(sue);
    expect(contract).toBeDefined();
    const delivered = await deliverWebhook(t, sandbox, {
      messageId: 'contract-sue-resumed',
      eventId: 'clientContract.updated',
      clientId: sue,
      eventData: { clientContractId: contract?.Id, contractName: contract?.ContractName },
    });
    expect(delivered.status).toBe(204);
    await waitFor(async () => (await member('Sue Suspend')).status === 'Active', 60_000);
    await settled(owner);
    expect(await branch('Sue Suspend')).toMatchObject({ counting: true, suspended: false });
    // Issue 31: Rita's lower bill waits for the owner's confirmation.
    expect(ritaAutopay()).toBe(60);
    await sync();
    expect(ritaAutopay()).toBe(50);
    expect((await ritaLedger()).at(-1)).toMatchObject({
      reason: 'branch_counting',
      old_price_cents: 6_000,
      new_price_cents: 5_000,
      branch_id: sueId,
    });
    await expectLedgersChained(t, businessId);
  });

  it('ended in Mindbody: the sync a webhook queues detaches Ed and tells Rita; the owner’s syncs then bill her $60 again, with one ledger line and exactly one email', async () => {
    const ed = clientIds.get('Ed Ended') ?? '';
    const edId = (await member('Ed Ended')).id;
    await mailsSettled();
    const mailsBefore = ritaMails().length;
    const linesBefore = (await ritaLedger()).length;
    const contract = sandbox.control.cancelMembership(ed);
    expect(contract).toBeDefined();
    // Mindbody's clientContract.updated delivery queues the sync that sees it ended.
    const delivered = await deliverWebhook(t, sandbox, {
      messageId: 'contract-ed-ended',
      eventId: 'clientContract.updated',
      clientId: ed,
      eventData: { clientContractId: contract?.Id, contractName: contract?.ContractName },
    });
    expect(delivered.status).toBe(204);
    await waitFor(async () => (await member('Ed Ended')).status === 'Ended', 60_000);
    await settled(owner);
    await mailsSettled();
    expect(ritaMails().slice(mailsBefore)).toEqual([
      'Ed Ended’s membership ended: your price is back to $60.00',
    ]);
    expect(ritaAutopay()).toBe(50);
    await sync();
    await sync();
    await mailsSettled();

    expect((await member('Ed Ended')).status).toBe('Ended');
    expect((await branch('Ed Ended')).referred_by_id).toBeNull();
    expect(ritaAutopay()).toBe(60);
    expect((await ritaLedger()).slice(linesBefore)).toEqual([
      {
        reason: 'branch_removed',
        old_price_cents: 5_000,
        new_price_cents: 6_000,
        membership_price_cents: 10_000,
        branch_id: edId,
      },
    ]);
    expect(ritaMails().slice(mailsBefore)).toEqual([
      'Ed Ended’s membership ended: your price is back to $60.00',
    ]);
    await expectLedgersChained(t, businessId);
  });

  it('tenant isolation: another business is refused this business’s Mindbody site (issue 31: a site belongs to one business); on a site of its own (rule: at approval) it imports and syncs; nothing of this business changes, and there ReferredBy labels make nobody a branch', async () => {
    const snapshot = async () => ({
      members: await t.dataSource.query(
        `SELECT id, referred_by_id, branch_counting_since, branch_lapsed_at, mindbody_first_paid_at,
           mindbody_suspended_at, mindbody_cancelled_at, mindbody_autopay_cents
         FROM members WHERE business_id = $1 ORDER BY id`,
        [businessId],
      ),
      lines: await lineCount(),
      emails: await t.dataSource.query(
        `SELECT count(*)::int AS n FROM member_emails WHERE business_id = $1`,
        [businessId],
      ),
    });
    const before = await snapshot();
    const other = (await t.signUp({ businessName: 'Other Gym' })).agent;
    // A site belongs to one business (issue 31): the other gym cannot connect this one's site,
    // so none of its syncs can touch these members or their bills.
    const claim = await other
      .post('/api/mindbody/credentials')
      .send(sandboxLogin(sandbox))
      .expect(409);
    expect(claim.body.message).toBe(MESSAGES.mindbodySiteClaimed);
    expect((await mindbodyStatus(other)).stage).toBe(1);
    // On a site of its own, with the same people and the same ReferredBy labels, it imports and syncs.
    const site = sandbox.control.site(OTHER_SITE);
    for (const [name, autopay] of [['Rita Referrer', 100], FRIENDS[0]] as const) {
      const [FirstName, LastName] = name.split(' ');
      site.addClient({
        FirstName,
        LastName,
        Email: `${FirstName.toLowerCase()}@example.com`,
        NormalAutoPay: autopay,
        ReferredBy: 'Friend',
      });
    }
    await reachStageFour(other, sandbox, TEN_DOLLARS, OTHER_SITE);
    await confirmedSync(other);
    expect((await settled(other)).processState).toMatch(/^completed /);
    await mailsSettled();

    expect(await snapshot()).toEqual(before);
    expect((await member('Fred Friend', other)).id).not.toBe((await member('Fred Friend')).id);
    expect((await member('Rita Referrer', other)).branches).toBe(0);
  });
});
