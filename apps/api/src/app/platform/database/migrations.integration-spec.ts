import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database';
import { Client } from 'pg';
import {
  createDataSource,
  MIGRATIONS,
  MIGRATIONS_LOCK_KEY,
  runMigrations,
} from '../../database-schema';
import { LifecycleBackfill1795471666404 } from './migrations/1795471666404-LifecycleBackfill';
import { EmailAddressRule1795560000000 } from './migrations/1795560000000-EmailAddressRule';

const tables = async (dataSource: DataSource): Promise<string[]> =>
  (
    (await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('referral_links', 'prospects')
     ORDER BY table_name`,
    )) as { table_name: string }[]
  ).map((row) => row.table_name);

/** Undoes the newest migrations, later ones first, down to and including the one named `name`. */
const undoThrough = async (dataSource: DataSource, name: string): Promise<void> => {
  for (;;) {
    const [last] = (await dataSource.query(
      `SELECT name FROM migrations ORDER BY id DESC LIMIT 1`,
    )) as { name: string }[];
    if (!last) throw new Error(`${name} is not applied`);
    await dataSource.undoLastMigration({ transaction: 'each' });
    if (last.name === name) return;
  }
};

describe('migrations (integration)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await createDataSource(db.url).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('AutoReferralLinksOnForNewBusinesses turns automatic links on for new businesses only, and goes down and up again', async () => {
    const insert = async (name: string): Promise<string> =>
      (
        (await dataSource.query(
          `INSERT INTO businesses (name, website, phone) VALUES ($1, 'gym.example.com', '0412 345 678') RETURNING id`,
          [name],
        )) as { id: string }[]
      )[0].id;
    const autoLinks = async (id: string): Promise<boolean> =>
      (
        (await dataSource.query(`SELECT auto_referral_links AS on FROM businesses WHERE id = $1`, [
          id,
        ])) as { on: boolean }[]
      )[0].on;
    await undoThrough(dataSource, 'AutoReferralLinksOnForNewBusinesses1795571200000');
    // A business from before the migration (off by default then), and one that turned it on.
    const before = await insert('Harbour Strength');
    const turnedOn = await insert('Ōtautahi Boxing');
    await dataSource.query(`UPDATE businesses SET auto_referral_links = true WHERE id = $1`, [
      turnedOn,
    ]);
    expect(await autoLinks(before)).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    // Existing businesses keep their setting; a new one starts with automatic links on.
    expect(await autoLinks(before)).toBe(false);
    expect(await autoLinks(turnedOn)).toBe(true);
    const after = await insert('Café Yoga Montréal');
    expect(await autoLinks(after)).toBe(true);
    await dataSource.query(`DELETE FROM businesses WHERE id = ANY($1::uuid[])`, [
      [before, turnedOn, after],
    ]);
  });

  it('ProspectOutcomes keeps approvals recorded before it (with the member they became) and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Outcome Gym', 'outcome.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const member = async (name: string, referredBy: string | null): Promise<string> =>
      (
        (await dataSource.query(
          `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, referred_by_id)
           VALUES ($1, $2, $3, $3, 10000, 1500, $4) RETURNING id`,
          [business.id, name, `${Math.random()}@x.com`, referredBy],
        )) as { id: string }[]
      )[0].id;
    const exists = async (): Promise<boolean> =>
      (
        (await dataSource.query(`SELECT to_regclass('prospect_outcomes') IS NOT NULL AS e`)) as {
          e: boolean;
        }[]
      )[0].e;
    await undoThrough(dataSource, 'ProspectOutcomes1795571300000');
    expect(await exists()).toBe(false);
    const referrer = await member("Siobhán O'Brien", null);
    const friend = await member('Anne-Marie Dubois', referrer);
    const prospectId = '6f1d2c7e-0000-4000-8000-000000000001';
    await dataSource.query(
      `INSERT INTO lifecycle_facts (business_id, kind, occurred_at, member_id, referrer_id, prospect_id, source, event_key)
       VALUES ($1, 'prospect_joined', '2026-01-02T03:04:05Z', NULL, $2, $4, NULL, $5),
              ($1, 'prospect_approved', '2026-01-05T03:04:05Z', $3, $2, $4, 'approval', $6)`,
      [
        business.id,
        referrer,
        friend,
        prospectId,
        `prospect_joined:${prospectId}`,
        `prospect_approved:${prospectId}`,
      ],
    );
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await exists()).toBe(true);
    const rows = (await dataSource.query(
      `SELECT prospect_id, referring_member_id, member_id, name, outcome, joined_at
         FROM prospect_outcomes WHERE business_id = $1`,
      [business.id],
    )) as {
      prospect_id: string;
      referring_member_id: string;
      member_id: string;
      name: string;
      outcome: string;
      joined_at: Date;
    }[];
    expect(rows).toEqual([
      {
        prospect_id: prospectId,
        referring_member_id: referrer,
        member_id: friend,
        name: 'Anne-Marie Dubois',
        outcome: 'approved',
        joined_at: new Date('2026-01-02T03:04:05Z'),
      },
    ]);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('JoinChannel goes down (a link-day’s visits of every channel summed into one row) and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Café Channel', 'cafe.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const link = '00000000-0000-4000-8000-000000000033';
    await dataSource.query(
      `INSERT INTO join_page_visits (business_id, referral_link_id, day, visits, channel)
       VALUES ($1, $2, '2026-11-01', 2, 'direct'), ($1, $2, '2026-11-01', 3, 'whatsapp'),
              ($1, $2, '2026-11-02', 4, 'qr')`,
      [business.id, link],
    );
    await undoThrough(dataSource, 'JoinChannel1795572100000');
    expect(
      await dataSource.query(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, visits FROM join_page_visits
         WHERE referral_link_id = $1 ORDER BY day`,
        [link],
      ),
    ).toEqual([
      { day: '2026-11-01', visits: 5 },
      { day: '2026-11-02', visits: 4 },
    ]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(
      await dataSource.query(
        `SELECT channel, visits FROM join_page_visits WHERE referral_link_id = $1 ORDER BY day`,
        [link],
      ),
    ).toEqual([
      { channel: 'direct', visits: 5 },
      { channel: 'direct', visits: 4 },
    ]);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('ReferralNudges starts every business with its nudges off, refuses a reminder without the invitation, and goes down and up again', async () => {
    const exists = async (): Promise<boolean> =>
      (
        (await dataSource.query(`SELECT to_regclass('referral_nudges') IS NOT NULL AS e`)) as {
          e: boolean;
        }[]
      )[0].e;
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Ana-Sofía Fitness', 'anasofia.example.com', '0412 345 678') RETURNING id, nudge_invite_after_days, nudge_reminder_after_days, nudge_monthly_summary`,
    )) as {
      id: string;
      nudge_invite_after_days: number | null;
      nudge_reminder_after_days: number | null;
      nudge_monthly_summary: boolean;
    }[];
    expect(business).toMatchObject({
      nudge_invite_after_days: null,
      nudge_reminder_after_days: null,
      nudge_monthly_summary: false,
    });
    await expect(
      dataSource.query(`UPDATE businesses SET nudge_reminder_after_days = 14 WHERE id = $1`, [
        business?.id,
      ]),
    ).rejects.toThrow(/businesses_nudge_reminder_needs_invite/);
    await expect(
      dataSource.query(`UPDATE businesses SET nudge_invite_after_days = 6 WHERE id = $1`, [
        business?.id,
      ]),
    ).rejects.toThrow(/businesses_nudge_invite_days/);
    await undoThrough(dataSource, 'ReferralNudges1795586000000');
    expect(await exists()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await exists()).toBe(true);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business?.id]);
  });

  it('BranchCountingTriggerInline counts a Stripe-billed branch from its first paid invoice, as the functions it replaced did, down and up again', async () => {
    /** Three branches under the first payment rule: the counting starts the trigger sets. */
    const scenario = async (): Promise<Record<string, Date | null>> => {
      const [business] = (await dataSource.query(
        `INSERT INTO businesses (name, website, phone, branch_qualification)
         VALUES ('Siobhán''s Gym', 'siobhan.example.com', '0412 345 678', 'first_payment') RETURNING id`,
      )) as { id: string }[];
      const member = async (name: string, email: string, referrer: string | null = null) =>
        (
          (await dataSource.query(
            `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, referred_by_id)
             VALUES ($1, $2, $3, $3, 4900, 500, $4) RETURNING id`,
            [business.id, name, email, referrer],
          )) as { id: string }[]
        )[0].id;
      const subscribe = (memberId: string, firstPaidAt: string | null) =>
        dataSource.query(
          `INSERT INTO stripe_member_subscriptions (business_id, member_id, stripe_subscription_id,
             stripe_customer_id, currency, price_cents, first_paid_at)
           VALUES ($1, $2::uuid, 'sub_' || md5($2::uuid::text), 'cus_' || md5($2::uuid::text), 'aud', 4900, $3)`,
          [business.id, memberId, firstPaidAt],
        );
      const billedReferrer = await member("Siobhán O'Brien", `siobhan.${business.id}@example.ie`);
      const plainReferrer = await member('Ana-Sofía Pérez', `ana.${business.id}@example.es`);
      await subscribe(billedReferrer, '2026-01-02T00:00:00Z');
      // Billed on Stripe herself, paid on 5 January: becomes a branch by an UPDATE.
      const paid = await member("Zoë D'Arcy-Nguyễn", `zoe.${business.id}@example.com`);
      await subscribe(paid, '2026-01-05T09:30:00Z');
      await dataSource.query(`UPDATE members SET referred_by_id = $2 WHERE id = $1`, [
        paid,
        billedReferrer,
      ]);
      // Her referrer is billed on Stripe, she has paid nothing yet: not counting.
      const unpaid = await member('Liam Walsh', `liam.${business.id}@example.ie`, billedReferrer);
      // Nobody billed on Stripe: the rule's plain case, counting from the insert.
      const plain = await member('Mia Chen', `mia.${business.id}@example.com`, plainReferrer);
      const rows = (await dataSource.query(
        `SELECT id, branch_counting_since FROM members WHERE id = ANY($1::uuid[])`,
        [[paid, unpaid, plain]],
      )) as { id: string; branch_counting_since: Date | null }[];
      const since = (id: string) =>
        rows.find((row) => row.id === id)?.branch_counting_since ?? null;
      await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
      return { paid: since(paid), unpaid: since(unpaid), plain: since(plain) };
    };
    const inline = await scenario();
    expect(inline.paid?.toISOString()).toBe('2026-01-05T09:30:00.000Z');
    expect(inline.unpaid).toBeNull();
    expect(inline.plain).toBeInstanceOf(Date);
    await undoThrough(dataSource, 'BranchCountingTriggerInline1795595000000');
    const functions = await scenario();
    expect(functions.paid?.toISOString()).toBe('2026-01-05T09:30:00.000Z');
    expect(functions.unpaid).toBeNull();
    expect(functions.plain).toBeInstanceOf(Date);
    await dataSource.runMigrations({ transaction: 'each' });
    const [definition] = (await dataSource.query(
      `SELECT prosrc FROM pg_proc WHERE proname = 'members_branch_counting'`,
    )) as { prosrc: string }[];
    expect(definition.prosrc).not.toContain('stripe_first_paid_at');
  });

  it('ReferrerReward: the default is the uncapped discount, its CHECKs refuse a bad cap, and it goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Reward Gym', 'reward.example.com', '0412 345 678')
       RETURNING id, referrer_reward, reward_cap_percent, reward_yearly_cap_cents`,
    )) as Record<string, unknown>[];
    expect(business).toMatchObject({
      referrer_reward: null,
      reward_cap_percent: 100,
      reward_yearly_cap_cents: null,
    });
    await expect(
      dataSource.query(`UPDATE businesses SET reward_cap_percent = 0 WHERE id = $1`, [business.id]),
    ).rejects.toThrow(/businesses_reward_cap_percent/);
    await expect(
      dataSource.query(`UPDATE businesses SET reward_yearly_cap_cents = 0 WHERE id = $1`, [
        business.id,
      ]),
    ).rejects.toThrow(/businesses_reward_yearly_cap/);
    const columns = async (): Promise<number> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.columns
            WHERE table_name = 'businesses' AND column_name LIKE 'reward_%'`,
        )) as { n: number }[]
      )[0].n;
    expect(await columns()).toBe(3);
    await undoThrough(dataSource, 'ReferrerReward1795594000000');
    expect(await columns()).toBe(0);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await columns()).toBe(3);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('BusinessJoinPage gives every business its own join code (existing ones too); RewardCapLocksReferrer and it go down and up again', async () => {
    const codes = async (): Promise<string[]> =>
      (
        (await dataSource.query(`SELECT join_code FROM businesses ORDER BY join_code`)) as {
          join_code: string;
        }[]
      ).map((row) => row.join_code);
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Join Gym', 'join.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    await undoThrough(dataSource, 'BusinessJoinPage1795640000000');
    await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Older Gym', 'older.example.com', '0412 345 679')`,
    );
    await dataSource.runMigrations({ transaction: 'each' });
    const after = await codes();
    expect(after.length).toBeGreaterThanOrEqual(2);
    expect(new Set(after).size).toBe(after.length);
    for (const code of after) expect(code).toMatch(/^[0-9a-f]{32}$/);
    const [lock] = (await dataSource.query(
      `SELECT prosrc LIKE '%FOR NO KEY UPDATE%' AS locks FROM pg_proc WHERE proname = 'members_referrer_reward_owed'`,
    )) as { locks: boolean }[];
    expect(lock.locks).toBe(true);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1 OR name = 'Older Gym'`, [
      business.id,
    ]);
  });

  it('MemberImportsHeartbeat goes down and up again', async () => {
    const columns = async (): Promise<number> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.columns
            WHERE table_name = 'member_imports' AND column_name = 'heartbeat_at'`,
        )) as { n: number }[]
      )[0].n;
    expect(await columns()).toBe(1);
    await undoThrough(dataSource, 'MemberImportsHeartbeat1795603000000');
    expect(await columns()).toBe(0);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await columns()).toBe(1);
  });

  it('StripeMemberRuns keeps one run a business, refuses an unknown kind or state, and goes down and up again', async () => {
    const exists = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'stripe_member_runs'`,
        )) as { n: number }[]
      )[0].n === 1;
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Run Gym', 'run.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const insert = (kind: string, state: string) =>
      dataSource.query(
        `INSERT INTO stripe_member_runs (business_id, run_id, kind, state) VALUES ($1, gen_random_uuid(), $2, $3)`,
        [business?.id, kind, state],
      );
    await insert('import', 'running');
    await expect(insert('sync', 'done')).rejects.toThrow(/duplicate key/);
    await dataSource.query(`DELETE FROM stripe_member_runs`);
    await expect(insert('export', 'running')).rejects.toThrow(/check constraint/);
    await expect(insert('sync', 'stuck')).rejects.toThrow(/check constraint/);
    await undoThrough(dataSource, 'StripeMemberRuns1795630000000');
    expect(await exists()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await exists()).toBe(true);
  });

  it('MailDeliveries keeps one delivery a job, claimed as sending, refuses an unknown status, and goes down and up again', async () => {
    const exists = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'mail_deliveries'`,
        )) as { n: number }[]
      )[0].n === 1;
    const [claimed] = (await dataSource.query(
      `INSERT INTO mail_deliveries (job_id) VALUES ('0b7c9e4e-1d2f-4a3b-8c5d-6e7f8a9b0c1d') RETURNING status`,
    )) as { status: string }[];
    expect(claimed?.status).toBe('sending');
    await expect(
      dataSource.query(
        `INSERT INTO mail_deliveries (job_id) VALUES ('0b7c9e4e-1d2f-4a3b-8c5d-6e7f8a9b0c1d')`,
      ),
    ).rejects.toThrow(/duplicate key/);
    await expect(
      dataSource.query(
        `INSERT INTO mail_deliveries (job_id, status) VALUES (gen_random_uuid(), 'maybe')`,
      ),
    ).rejects.toThrow(/check constraint/);
    await undoThrough(dataSource, 'MailDeliveries1795685000000');
    expect(await exists()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await exists()).toBe(true);
  });

  it("MemberEmailSending lets a member email be 'sending' or 'uncertain'; down, they are 'queued' and 'sent' again; up again", async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Sending Gym', 'sending.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const [member] = (await dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       VALUES ($1, 'Ana-Sofía Pérez', 'ana.sofia@example.es', 'ana.sofia@examplees', 5000, 500) RETURNING id`,
      [business.id],
    )) as { id: string }[];
    const email = `INSERT INTO member_emails (business_id, member_id, template, data, origin, event_key, status)
      VALUES ($1, $2, 'magic-link', '{}', 'http://localhost:3000', $3, $4)`;
    await dataSource.query(email, [business.id, member.id, 'sending:1', 'sending']);
    await dataSource.query(email, [business.id, member.id, 'sending:2', 'uncertain']);
    const statuses = async () =>
      (
        (await dataSource.query(
          `SELECT status FROM member_emails WHERE event_key LIKE 'sending:%' ORDER BY event_key`,
        )) as { status: string }[]
      ).map((row) => row.status);
    await undoThrough(dataSource, 'MemberEmailSending1795607000000');
    expect(await statuses()).toEqual(['queued', 'sent']);
    await expect(
      dataSource.query(
        `UPDATE member_emails SET status = 'uncertain' WHERE event_key = 'sending:1'`,
      ),
    ).rejects.toMatchObject({ code: '23514' });
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query(
      `UPDATE member_emails SET status = 'sending' WHERE event_key = 'sending:1'`,
    );
    expect(await statuses()).toEqual(['sending', 'sent']);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('ChosenPassword marks only accounts that joined with a passkey (user and first passkey in one transaction, no reset used since); down and up again', async () => {
    await undoThrough(dataSource, 'ChosenPassword1795620000000');
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Chosen Gym', 'chosen.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const at = '2026-11-20T09:00:00Z';
    const later = '2026-11-21T09:00:00Z';
    const user = async (email: string) =>
      (
        (await dataSource.query(
          `INSERT INTO users (business_id, email, first_name, last_name, password_hash, created_at)
           VALUES ($1, $2, 'Zoë', 'D''Arcy-Nguyễn', 'x', $3) RETURNING id`,
          [business.id, email, at],
        )) as { id: string }[]
      )[0].id;
    const passkey = (userId: string, createdAt: string) =>
      dataSource.query(
        `INSERT INTO user_passkeys (user_id, business_id, credential_id, public_key, name, created_at)
         VALUES ($1, $2, $3, '\\x00', 'Front desk iPad', $4)`,
        [userId, business.id, `cred-${userId}`, createdAt],
      );
    const joined = await user('joined.passkey@chosen.example.com');
    await passkey(joined, at);
    const addedLater = await user('added.later@chosen.example.com');
    await passkey(addedLater, later);
    const noPasskey = await user('no.passkey@chosen.example.com');
    const resetSince = await user('reset.since@chosen.example.com');
    await passkey(resetSince, at);
    await dataSource.query(
      `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at, used_at)
       VALUES ($1, 'chosen-reset', now(), now())`,
      [resetSince],
    );
    await dataSource.runMigrations({ transaction: 'each' });
    const chosen = async () =>
      Object.fromEntries(
        (
          (await dataSource.query(`SELECT id, password_chosen FROM users WHERE business_id = $1`, [
            business.id,
          ])) as { id: string; password_chosen: boolean }[]
        ).map((row) => [row.id, row.password_chosen]),
      );
    expect(await chosen()).toEqual({
      [joined]: false,
      [addedLater]: true,
      [noPasskey]: true,
      [resetSince]: true,
    });
    await undoThrough(dataSource, 'ChosenPassword1795620000000');
    await dataSource.runMigrations({ transaction: 'each' });
    expect((await chosen())[joined]).toBe(false);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('StripeEndedMembers fills stripe_ended_at from the subscriptions that ended, and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Ended Gym', 'ended.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const member = async (name: string, endedAt: string | null): Promise<string> => {
      const [row] = (await dataSource.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
         VALUES ($1, $2, $3, $3, 5000, 0) RETURNING id`,
        [business.id, name, `${name.toLowerCase()}@ended.example.com`],
      )) as { id: string }[];
      await dataSource.query(
        `INSERT INTO stripe_member_subscriptions (business_id, member_id, stripe_subscription_id,
           stripe_customer_id, currency, price_cents, ended_at)
         VALUES ($1, $2::uuid, 'sub_' || $2::text, 'cus_' || $2::text, 'eur', 5000, $3::timestamptz)`,
        [business.id, row.id, endedAt],
      );
      return row.id;
    };
    await undoThrough(dataSource, 'StripeEndedMembers1795600000000');
    const zoe = await member('Zoë', '2026-11-01T10:00:00Z');
    const ana = await member('Ana', null);
    await dataSource.runMigrations({ transaction: 'each' });
    const ended = async () =>
      (
        (await dataSource.query(
          `SELECT id, stripe_ended_at FROM members WHERE business_id = $1 ORDER BY name`,
          [business.id],
        )) as { id: string; stripe_ended_at: Date | null }[]
      ).map((row) => [row.id, row.stripe_ended_at?.toISOString() ?? null]);
    expect(await ended()).toEqual([
      [ana, null],
      [zoe, '2026-11-01T10:00:00.000Z'],
    ]);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('JoinPageVisitors goes down and up again', async () => {
    const exists = async (): Promise<boolean> =>
      (
        (await dataSource.query(`SELECT to_regclass('join_page_visitors') IS NOT NULL AS e`)) as {
          e: boolean;
        }[]
      )[0].e;
    expect(await exists()).toBe(true);
    await undoThrough(dataSource, 'JoinPageVisitors1795560100000');
    expect(await exists()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await exists()).toBe(true);
  });

  it('EmailAddressRule reports stored addresses that are not one mailbox (ids only), marks their queued member emails unsent, and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Address Gym', 'address.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const member = `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
      VALUES ($1, $2, $3, $4, 5000, 500) RETURNING id`;
    const [[good], [listed], [crlf], [noEmail]] = (await Promise.all([
      dataSource.query(member, [business.id, 'Good', 'good@example.com', 'good@examplecom']),
      dataSource.query(member, [business.id, 'Listed', 'nia@example.com, list@evil.example', 'k1']),
      dataSource.query(member, [
        business.id,
        'Crlf',
        'carl@example.com\r\nBcc: b@evil.example',
        'k2',
      ]),
      dataSource.query(member, [business.id, 'None', '', 'mindbody:1']),
    ])) as { id: string }[][];
    const [prospect] = (await dataSource.query(
      `INSERT INTO prospects (business_id, referring_member_id, name, email, email_key)
       VALUES ($1, $2, 'P', '(x)zed@example.com', '(x)zed@examplecom') RETURNING id`,
      [business.id, good.id],
    )) as { id: string }[];
    await undoThrough(dataSource, 'EmailAddressRule1795560000000');
    const email = `INSERT INTO member_emails (business_id, member_id, template, data, origin, event_key)
      VALUES ($1, $2, 'magic-link', '{}', 'http://localhost:3000', $3)`;
    await dataSource.query(email, [business.id, good.id, 'rule:good']);
    await dataSource.query(email, [business.id, listed.id, 'rule:listed']);
    await dataSource.query(email, [business.id, crlf.id, 'rule:crlf']);
    const warn = jest.spyOn(dataSource.logger, 'log');
    await dataSource.runMigrations({ transaction: 'each' });
    const report = EmailAddressRule1795560000000.lastReport;
    expect(report?.members).toEqual([listed.id, crlf.id].sort());
    expect(report?.prospects).toEqual([prospect.id]);
    expect(report?.members).not.toContain(noEmail.id);
    const lines = warn.mock.calls
      .filter(([level]) => level === 'warn')
      .map(([, text]) => String(text));
    warn.mockRestore();
    expect(lines).toEqual([
      expect.stringContaining(`2 member row(s) of members`),
      expect.stringContaining(`1 prospective member row(s) of prospects`),
    ]);
    expect(lines.join('\n')).not.toMatch(/example/);
    const statuses = async () =>
      (await dataSource.query(
        `SELECT event_key, status FROM member_emails WHERE event_key LIKE 'rule:%' ORDER BY event_key`,
      )) as { event_key: string; status: string }[];
    expect(await statuses()).toEqual([
      { event_key: 'rule:crlf', status: 'invalid_address' },
      { event_key: 'rule:good', status: 'queued' },
      { event_key: 'rule:listed', status: 'invalid_address' },
    ]);
    await undoThrough(dataSource, 'EmailAddressRule1795560000000');
    expect((await statuses()).map((row) => row.status)).toEqual([
      'no_member',
      'queued',
      'no_member',
    ]);
    await expect(
      dataSource.query(
        `UPDATE member_emails SET status = 'invalid_address' WHERE event_key = 'rule:good'`,
      ),
    ).rejects.toMatchObject({ code: '23514' });
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it("MemberSearchVersion moves a business's version when its members are added, removed, renamed, re-addressed or moved, not when a price changes, and goes down and up again", async () => {
    const business = `INSERT INTO businesses (name, website, phone) VALUES ($1, 'version.example.com', '0412 345 678') RETURNING id`;
    const [[a], [b]] = (await Promise.all([
      dataSource.query(business, ['Version Gym A']),
      dataSource.query(business, ['Version Gym B']),
    ])) as { id: string }[][];
    const versions = async () =>
      (
        (await dataSource.query(
          `SELECT member_search_version::int AS v FROM businesses WHERE id = ANY($1) ORDER BY name`,
          [[a.id, b.id]],
        )) as { v: number }[]
      ).map((row) => row.v);
    // One statement adding three members moves A's version once.
    await dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       SELECT $1, 'Member ' || n, 'm' || n || '@x.com', 'm' || n || '@xcom', 5000, 500 FROM generate_series(1, 3) n`,
      [a.id],
    );
    expect(await versions()).toEqual([1, 0]);
    await dataSource.query(
      `UPDATE members SET membership_price_cents = 6000 WHERE business_id = $1`,
      [a.id],
    );
    expect(await versions()).toEqual([1, 0]);
    await dataSource.query(
      `UPDATE members SET name = 'Renamed' WHERE name = 'Member 1' AND business_id = $1`,
      [a.id],
    );
    await dataSource.query(
      `UPDATE members SET email = 'new@x.com' WHERE name = 'Member 2' AND business_id = $1`,
      [a.id],
    );
    expect(await versions()).toEqual([3, 0]);
    await dataSource.query(
      `UPDATE members SET business_id = $2 WHERE name = 'Member 3' AND business_id = $1`,
      [a.id, b.id],
    );
    expect(await versions()).toEqual([4, 1]);
    await dataSource.query(`DELETE FROM members WHERE business_id = $1`, [b.id]);
    expect(await versions()).toEqual([4, 2]);

    await undoThrough(dataSource, 'MemberSearchVersion1795492664065');
    expect(
      await dataSource.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'businesses' AND column_name = 'member_search_version'`,
      ),
    ).toEqual([]);
    expect(
      await dataSource.query(
        `SELECT tgname FROM pg_trigger WHERE tgrelid = 'members'::regclass AND tgname LIKE 'members_search_version%'`,
      ),
    ).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await versions()).toEqual([0, 0]);
    await dataSource.query(`DELETE FROM members WHERE business_id = $1`, [a.id]);
    expect(await versions()).toEqual([1, 0]);
  });

  it("BusinessProspectCount counts each business's prospects through inserts, deletes and a tree removed with its prospects, and goes down and up again", async () => {
    const business = `INSERT INTO businesses (name, website, phone) VALUES ($1, 'count.example.com', '0412 345 678') RETURNING id`;
    const [[a], [b]] = (await Promise.all([
      dataSource.query(business, ['Count Gym A']),
      dataSource.query(business, ['Count Gym B']),
    ])) as { id: string }[][];
    const member = `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       VALUES ($1, $2, $3, $3, 5000, 500) RETURNING id`;
    const [[treeA], [treeB]] = (await Promise.all([
      dataSource.query(member, [a.id, 'Tree A', 'tree-a@x.com']),
      dataSource.query(member, [b.id, 'Tree B', 'tree-b@x.com']),
    ])) as { id: string }[][];
    const addProspects = (businessId: string, treeId: string, emails: string[]) =>
      dataSource.query(
        `INSERT INTO prospects (business_id, referring_member_id, name, email, email_key)
         SELECT $1, $2, e, e, e FROM unnest($3::text[]) AS e`,
        [businessId, treeId, emails],
      );
    const counts = async () =>
      (
        (await dataSource.query(
          `SELECT b.prospect_count AS kept, (SELECT count(*)::int FROM prospects p WHERE p.business_id = b.id) AS counted
           FROM businesses b WHERE b.id = ANY($1) ORDER BY b.name`,
          [[a.id, b.id]],
        )) as { kept: number; counted: number }[]
      ).map((row) => [row.kept, row.counted]);
    await addProspects(a.id, treeA.id, ['p1@x.com', 'p2@x.com', 'p3@x.com']);
    await addProspects(b.id, treeB.id, ['q1@x.com']);
    expect(await counts()).toEqual([
      [3, 3],
      [1, 1],
    ]);
    await dataSource.query(`DELETE FROM prospects WHERE email = 'p1@x.com'`);
    expect(await counts()).toEqual([
      [2, 2],
      [1, 1],
    ]);

    await undoThrough(dataSource, 'BusinessProspectCount1795482902020');
    expect(
      await dataSource.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'businesses' AND column_name = 'prospect_count'`,
      ),
    ).toEqual([]);
    expect(
      await dataSource.query(
        `SELECT tgname FROM pg_trigger WHERE tgrelid = 'prospects'::regclass AND tgname LIKE 'prospects_count%'`,
      ),
    ).toEqual([]);
    await addProspects(a.id, treeA.id, ['p4@x.com']);
    await dataSource.runMigrations({ transaction: 'each' });
    // Up again, the counter starts from the prospects already there.
    expect(await counts()).toEqual([
      [3, 3],
      [1, 1],
    ]);
    // A tree removed takes its prospects with it (the foreign key's cascade): counted too.
    await dataSource.query(`DELETE FROM members WHERE id = $1`, [treeA.id]);
    expect(await counts()).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('BranchQualification keeps existing branches counting since they were added, refuses a days rule without days, and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Rule Gym', 'rule.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    expect(
      await dataSource.query(`SELECT branch_qualification FROM businesses WHERE id = $1`, [
        business.id,
      ]),
    ).toEqual([{ branch_qualification: 'approval' }]);
    await expect(
      dataSource.query(`UPDATE businesses SET branch_qualification = 'days' WHERE id = $1`, [
        business.id,
      ]),
    ).rejects.toThrow(/businesses_branch_qualification_days_set/);
    await expect(
      dataSource.query(
        `UPDATE businesses SET branch_qualification = 'days', branch_qualification_days = 0 WHERE id = $1`,
        [business.id],
      ),
    ).rejects.toThrow(/businesses_branch_qualification_days_range/);
    await undoThrough(dataSource, 'BranchQualification1795481534511');
    const member = `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, referred_by_id, created_at)
       VALUES ($1, $2, $3, $3, 5000, 500, $4, $5) RETURNING id`;
    const [tree] = (await dataSource.query(member, [
      business.id,
      'Tree',
      'tree@x.com',
      null,
      '2026-01-01T00:00:00Z',
    ])) as { id: string }[];
    await dataSource.query(member, [
      business.id,
      'Branch',
      'branch@x.com',
      tree.id,
      '2026-02-03T04:05:06Z',
    ]);
    await dataSource.runMigrations({ transaction: 'each' });
    const since = (await dataSource.query(
      `SELECT name, branch_counting_since FROM members WHERE business_id = $1 ORDER BY name`,
      [business.id],
    )) as { name: string; branch_counting_since: Date | null }[];
    expect(
      since.map((row) => [row.name, row.branch_counting_since?.toISOString() ?? null]),
    ).toEqual([
      ['Branch', '2026-02-03T04:05:06.000Z'],
      ['Tree', null],
    ]);
  });

  it("BranchCountingRule starts every new branch by its business's rule, clears it when detached, and goes down and up again", async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone, branch_qualification, branch_qualification_days)
       VALUES ('Days Gym', 'days.example.com', '0412 345 678', 'days', 30) RETURNING id`,
    )) as { id: string }[];
    const member = `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents,
         referred_by_id, created_at, mindbody_client_id)
       VALUES ($1, $2, $3, $3, 5000, 500, $4, $5, $6) RETURNING id, branch_counting_since AS since`;
    type Inserted = { id: string; since: Date | null };
    const add = async (
      name: string,
      referrer: string | null,
      createdAt: string,
      clientId: string | null = null,
    ): Promise<Inserted> =>
      (
        (await dataSource.query(member, [
          business.id,
          name,
          `${name}@x.com`,
          referrer,
          createdAt,
          clientId,
        ])) as Inserted[]
      )[0];
    const tree = await add('tree', null, '2026-01-01T00:00:00Z');
    expect(tree.since).toBeNull();
    // Days rule: a new branch waits; one already a member for 30 days counts since then.
    expect((await add('fresh', tree.id, new Date().toISOString())).since).toBeNull();
    expect((await add('old', tree.id, '2026-01-01T00:00:00Z')).since?.toISOString()).toBe(
      '2026-01-31T00:00:00.000Z',
    );
    // First payment: a Mindbody friend waits for it; a friend added by hand counts at once.
    await dataSource.query(
      `UPDATE businesses SET branch_qualification = 'first_payment' WHERE id = $1`,
      [business.id],
    );
    expect((await add('mb', tree.id, new Date().toISOString(), '100001')).since).toBeNull();
    const hand = await add('hand', tree.id, new Date().toISOString());
    expect(hand.since).not.toBeNull();
    // Detached: no longer a branch, so not counting.
    await dataSource.query(
      `UPDATE members SET referred_by_id = NULL, branch_lapsed_at = now() WHERE id = $1`,
      [hand.id],
    );
    expect(
      await dataSource.query(
        `SELECT branch_counting_since, branch_lapsed_at FROM members WHERE id = $1`,
        [hand.id],
      ),
    ).toEqual([{ branch_counting_since: null, branch_lapsed_at: null }]);

    await undoThrough(dataSource, 'BranchCountingRule1795481825526');
    const leftovers = async (): Promise<number> =>
      (
        (await dataSource.query(
          `SELECT (SELECT count(*) FROM pg_proc WHERE proname IN ('branch_counting_start', 'members_branch_counting'))::int
             + (SELECT count(*) FROM information_schema.columns WHERE table_name = 'members' AND column_name = 'branch_lapsed_at')::int AS n`,
        )) as { n: number }[]
      )[0].n;
    expect(await leftovers()).toBe(0);
    // Without the trigger an insert names no counting moment.
    expect((await add('plain', tree.id, new Date().toISOString())).since).toBeNull();
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await leftovers()).toBe(3);
  });

  it('FraudSignals records a removed member as a digest, lets a business with members be deleted, and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Fraud Gym', 'fraud.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const member = `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
       VALUES ($1, $2, $3, $3, 5000, 500) RETURNING id`;
    const [gone] = (await dataSource.query(member, [business.id, 'Gone', 'gone@xcom'])) as {
      id: string;
    }[];
    await dataSource.query(member, [business.id, 'Stays', 'stays@xcom']);
    await dataSource.query(`DELETE FROM members WHERE id = $1`, [gone.id]);
    const former = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT encode(email_digest, 'hex') AS digest FROM former_members WHERE business_id = $1`,
          [business.id],
        )) as { digest: string }[]
      ).map((row) => row.digest);
    expect(await former()).toEqual([
      createHash('sha256').update(`${business.id}:gone@xcom`).digest('hex'),
    ]);
    // Deleting the business removes its members through the cascade: nothing is recorded, no error.
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
    expect(await former()).toEqual([]);
    await undoThrough(dataSource, 'FraudSignals1795470868763');
    const [{ n }] = (await dataSource.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('former_members', 'member_page_opens')`,
    )) as { n: number }[];
    expect(n).toBe(0);
    await dataSource.runMigrations({ transaction: 'each' });
  });

  it('LifecycleFacts keeps one fact and one ledger line per business and event key, and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Facts Gym', 'facts.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const fact = `INSERT INTO lifecycle_facts (business_id, kind, source, event_key) VALUES ($1, 'member_added', 'manual', 'member_added:1') ON CONFLICT DO NOTHING RETURNING id`;
    expect(await dataSource.query(fact, [business.id])).toHaveLength(1);
    expect(await dataSource.query(fact, [business.id])).toHaveLength(0);
    await expect(
      dataSource.query(
        `INSERT INTO price_changes (business_id, member_id, reason, new_price_cents, membership_price_cents, event_key) VALUES ($1, gen_random_uuid(), 'branch_added', -1, 5000, 'x')`,
        [business.id],
      ),
    ).rejects.toThrow(/price_changes_prices_not_negative/);
    await undoThrough(dataSource, 'LifecycleFacts1795470615350');
    const factTables = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('lifecycle_facts', 'join_page_visits', 'price_changes') ORDER BY table_name`,
        )) as { table_name: string }[]
      ).map((row) => row.table_name);
    expect(await factTables()).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await factTables()).toEqual(['join_page_visits', 'lifecycle_facts', 'price_changes']);
  });

  it('LifecycleBackfill gives existing rows their facts and an opening ledger line once, keeps facts recorded live, and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Old Gym', 'old.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const insertMember = async (columns: string, values: string): Promise<string> => {
      const [row] = (await dataSource.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents${columns})
         VALUES ($1, 'N', $2, $2, 10000, 1500${values}) RETURNING id`,
        [business.id, `${Math.random()}@x.com`],
      )) as { id: string }[];
      return row.id;
    };
    const tree = await insertMember('', '');
    const branch = await insertMember(', referred_by_id', `, '${tree}'`);
    const ended = await insertMember(
      ', mindbody_client_id, mindbody_autopay_cents, mindbody_priced_at, mindbody_cancelled_at',
      `, 'c1', 10000, now(), '2026-01-02T03:04:05.123456Z'`,
    );
    const pending = await insertMember(', mindbody_client_id', `, 'c2'`);
    const links = (await dataSource.query(
      `INSERT INTO referral_links (business_id, member_id, code, revoked_at)
       VALUES ($1, $2, 'old-code-0000000001', now()), ($1, $2, 'old-code-0000000002', NULL) RETURNING id`,
      [business.id, tree],
    )) as { id: string }[];
    const [prospect] = (await dataSource.query(
      `INSERT INTO prospects (business_id, referring_member_id, name, email, email_key)
       VALUES ($1, $2, 'P', 'p@x.com', 'p@x.com') RETURNING id`,
      [business.id, tree],
    )) as { id: string }[];
    // Recorded live before the backfill ran: kept as they are, and the branch keeps its own ledger.
    await dataSource.query(
      `INSERT INTO lifecycle_facts (business_id, kind, member_id, source, event_key) VALUES ($1, 'member_added', $2, 'manual', $3)`,
      [business.id, tree, `member_added:${tree}`],
    );
    await dataSource.query(
      `INSERT INTO price_changes (business_id, member_id, reason, new_price_cents, membership_price_cents, event_key)
       VALUES ($1, $2, 'member_added', 10000, 10000, $3)`,
      [business.id, branch, `price:${branch}:member_added`],
    );
    const facts = async () =>
      (await dataSource.query(
        `SELECT kind, source, event_key FROM lifecycle_facts WHERE business_id = $1 ORDER BY kind, event_key`,
        [business.id],
      )) as { kind: string; source: string; event_key: string }[];
    const ledger = async () =>
      (await dataSource.query(
        `SELECT member_id, reason, old_price_cents, new_price_cents, membership_price_cents FROM price_changes
         WHERE business_id = $1 ORDER BY id`,
        [business.id],
      )) as unknown[];
    const live = { facts: await facts(), ledger: await ledger() };

    await undoThrough(dataSource, 'LifecycleBackfill1795471666404');
    expect({ facts: await facts(), ledger: await ledger() }).toEqual(live);
    await dataSource.runMigrations({ transaction: 'each' });
    const backfilled = await facts();
    expect(backfilled).toEqual(
      [
        ['branch_added', 'backfill', `branch_added:${branch}`],
        ['link_created', 'backfill', `link_created:${links[0]?.id}`],
        ['link_created', 'backfill', `link_created:${links[1]?.id}`],
        ['link_revoked', 'backfill', `link_revoked:${links[0]?.id}`],
        ['member_added', 'backfill', `member_added:${branch}`],
        ['member_added', 'backfill', `member_added:${ended}`],
        ['member_added', 'backfill', `member_added:${pending}`],
        ['member_added', 'manual', `member_added:${tree}`],
        ['member_ended', 'backfill', `member_ended:${ended}:2026-01-02T03:04:05.123456Z`],
        ['prospect_joined', 'backfill', `prospect_joined:${prospect?.id}`],
      ]
        .map(([kind, source, key]) => ({ kind, source, event_key: key }))
        .sort((a, b) =>
          a.kind === b.kind ? (a.event_key < b.event_key ? -1 : 1) : a.kind < b.kind ? -1 : 1,
        ),
    );
    const opened = await ledger();
    // The tree pays 100 − 15 × 1 branch; the ended and the unpriced Mindbody members get no line.
    expect(opened).toEqual([
      ...live.ledger,
      {
        member_id: tree,
        reason: 'backfill',
        old_price_cents: null,
        new_price_cents: 8_500,
        membership_price_cents: 10_000,
      },
    ]);
    // Run again over its own rows: nothing new.
    const runner = dataSource.createQueryRunner();
    try {
      await new LifecycleBackfill1795471666404().up(runner);
    } finally {
      await runner.release();
    }
    expect(await facts()).toEqual(backfilled);
    expect(await ledger()).toEqual(opened);
    await undoThrough(dataSource, 'LifecycleBackfill1795471666404');
    expect({ facts: await facts(), ledger: await ledger() }).toEqual(live);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await facts()).toEqual(backfilled);
  });

  it('MemberSearchKeys and BusinessLedSearchIndex go down and up again: per-business keys, one business-led trigram index, or the two global ones', async () => {
    const searchIndexes = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT indexname FROM pg_indexes WHERE tablename = 'members' AND indexdef LIKE '%USING gin%' ORDER BY indexname`,
        )) as { indexname: string }[]
      ).map((row) => row.indexname);
    expect(await searchIndexes()).toEqual(['members_search_keys_idx']);
    await undoThrough(dataSource, 'MemberSearchKeys1795482825286');
    expect(await searchIndexes()).toEqual(['members_business_search_idx']);
    const functions = (await dataSource.query(
      `SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'member_search_keys'`,
    )) as { n: number }[];
    expect(functions[0].n).toBe(0);
    await undoThrough(dataSource, 'BusinessLedSearchIndex1795461063207');
    expect(await searchIndexes()).toEqual(['members_email_trgm_idx', 'members_name_trgm_idx']);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await searchIndexes()).toEqual(['members_search_keys_idx']);
  });

  it('SessionFamilies gives every existing rotation chain one family and its first sign-in time, and goes down and up again', async () => {
    await undoThrough(dataSource, 'SessionFamilies1795460545382');
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Gym', 'gym.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const [user] = (await dataSource.query(
      `INSERT INTO users (business_id, email, first_name, last_name, password_hash) VALUES ($1, 'sam@gym.example.com', 'Sam', 'Lee', 'x') RETURNING id`,
      [business.id],
    )) as { id: string }[];
    // Two sign-ins: one rotated twice (a → b → c), one never rotated (d).
    const insert = async (
      label: string,
      createdAt: string,
      replacedBy: string | null,
    ): Promise<string> =>
      (
        (await dataSource.query(
          `INSERT INTO sessions (user_id, refresh_token_hash, expires_at, revoked_at, replaced_by_id, created_at)
           VALUES ($1, $2, now() + interval '1 day', CASE WHEN $3::uuid IS NULL THEN NULL ELSE now() END, $3, $4) RETURNING id`,
          [user.id, label, replacedBy, createdAt],
        )) as { id: string }[]
      )[0].id;
    const c = await insert('c', '2026-11-03T00:00:00Z', null);
    const b = await insert('b', '2026-11-02T00:00:00Z', c);
    const a = await insert('a', '2026-11-01T00:00:00Z', b);
    const d = await insert('d', '2026-11-05T00:00:00Z', null);
    await dataSource.runMigrations({ transaction: 'each' });
    const rows = (await dataSource.query(
      `SELECT id, family_id, signed_in_at FROM sessions WHERE user_id = $1 ORDER BY created_at`,
      [user.id],
    )) as { id: string; family_id: string; signed_in_at: Date }[];
    expect(rows.map((row) => [row.id, row.family_id, row.signed_in_at.toISOString()])).toEqual([
      [a, a, '2026-11-01T00:00:00.000Z'],
      [b, a, '2026-11-01T00:00:00.000Z'],
      [c, a, '2026-11-01T00:00:00.000Z'],
      [d, d, '2026-11-05T00:00:00.000Z'],
    ]);
    await undoThrough(dataSource, 'SessionFamilies1795460545382');
    const columns = (await dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions' AND column_name IN ('family_id', 'signed_in_at')`,
    )) as unknown[];
    expect(columns).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('PasswordResetTokens keeps links with their owner (gone with the user) and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Reset Gym', 'reset.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const [user] = (await dataSource.query(
      `INSERT INTO users (business_id, email, first_name, last_name, password_hash)
       VALUES ($1, 'reset.owner@example.com', 'Reset', 'Owner', 'x') RETURNING id`,
      [business.id],
    )) as { id: string }[];
    const insert = `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
                    VALUES ($1, $2, now() + interval '30 minutes')`;
    await dataSource.query(insert, [user.id, 'hash-1']);
    await expect(dataSource.query(insert, [user.id, 'hash-1'])).rejects.toThrow(/unique/);
    const exists = async (): Promise<boolean> =>
      (
        (await dataSource.query(`SELECT to_regclass('public.password_reset_tokens') AS t`)) as {
          t: string | null;
        }[]
      )[0].t !== null;
    await undoThrough(dataSource, 'PasswordResetTokens1795503217409');
    expect(await exists()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await exists()).toBe(true);
    await dataSource.query(insert, [user.id, 'hash-2']);
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
    const [{ n }] = (await dataSource.query(
      `SELECT count(*)::int AS n FROM password_reset_tokens WHERE user_id = $1`,
      [user.id],
    )) as { n: number }[];
    expect(n).toBe(0);
  });

  it('BusinessCountry makes every business Australian unless told, takes ISO codes only, and goes down and up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Country Gym', 'country.example.com', '0412 345 678') RETURNING id, country`,
    )) as { id: string; country: string }[];
    expect(business.country).toBe('AU');
    await dataSource.query(`UPDATE businesses SET country = 'US' WHERE id = $1`, [business.id]);
    await expect(
      dataSource.query(`UPDATE businesses SET country = 'usa' WHERE id = $1`, [business.id]),
    ).rejects.toThrow(/businesses_country_iso/);
    const hasColumn = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = 'businesses' AND column_name = 'country'`,
        )) as { n: number }[]
      )[0]?.n === 1;
    await undoThrough(dataSource, 'BusinessCountry1795503384512');
    expect(await hasColumn()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await hasColumn()).toBe(true);
    const [after] = (await dataSource.query(`SELECT country FROM businesses WHERE id = $1`, [
      business.id,
    ])) as { country: string }[];
    expect(after.country).toBe('AU');
    await dataSource.query(`DELETE FROM businesses WHERE id = $1`, [business.id]);
  });

  it('MindbodyPricedAt goes down and up again', async () => {
    const hasColumn = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = 'members' AND column_name = 'mindbody_priced_at'`,
        )) as { n: number }[]
      )[0]?.n === 1;
    expect(await hasColumn()).toBe(true);
    await undoThrough(dataSource, 'MindbodyPricedAt1764201600000');
    expect(await hasColumn()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await hasColumn()).toBe(true);
  });

  it('MindbodyIntegrations goes down and up again', async () => {
    const mindbodyTables = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'
           AND table_name IN ('mindbody_integrations', 'mindbody_webhook_messages') ORDER BY table_name`,
        )) as { table_name: string }[]
      ).map((row) => row.table_name);
    expect(await mindbodyTables()).toEqual(['mindbody_integrations', 'mindbody_webhook_messages']);
    await undoThrough(dataSource, 'MindbodyIntegrations1764115200000');
    expect(await mindbodyTables()).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await mindbodyTables()).toEqual(['mindbody_integrations', 'mindbody_webhook_messages']);
  });

  it('MemberImportsCompressed keeps uploads stored as JSONB, and going down keeps only uploads it can read (a compressed one running keeps empty rows); up again', async () => {
    const [business] = (await dataSource.query(
      `INSERT INTO businesses (name, website, phone) VALUES ('Café Ōtautahi', 'gym.example.com', '0412 345 678') RETURNING id`,
    )) as { id: string }[];
    const insert = async (columns: string, values: string): Promise<string> =>
      (
        (await dataSource.query(
          `INSERT INTO member_imports (business_id, headers, total_rows, state, ${columns})
           VALUES ($1, '["Name"]'::jsonb, 1, $2, ${values}) RETURNING id`,
          [business?.id, 'uploaded'],
        )) as { id: string }[]
      )[0]?.id as string;
    const old = await insert('rows, lines', `'[["Zoë"]]'::jsonb, '[2]'::jsonb`);
    // A compressed upload not running: gone on the way down (SQL cannot read it).
    await insert('upload', `'\\x1f8b'::bytea`);
    const running = await insert('upload', `'\\x1f8b'::bytea`);
    await dataSource.query(`UPDATE member_imports SET state = 'running' WHERE id = $1`, [running]);
    await undoThrough(dataSource, 'MemberImportsCompressed1795571700000');
    const left = (await dataSource.query(
      `SELECT id, rows, lines FROM member_imports WHERE business_id = $1 ORDER BY created_at, id`,
      [business?.id],
    )) as { id: string; rows: unknown; lines: unknown }[];
    expect(new Map(left.map((row) => [row.id, [row.rows, row.lines]]))).toEqual(
      new Map([
        [old, [[['Zoë']], [2]]],
        [running, [[], []]],
      ]),
    );
    await dataSource.runMigrations({ transaction: 'each' });
    const [column] = (await dataSource.query(
      `SELECT data_type FROM information_schema.columns WHERE table_name = 'member_imports' AND column_name = 'upload'`,
    )) as { data_type: string }[];
    expect(column?.data_type).toBe('bytea');
  });

  it('MemberImports goes down and up again', async () => {
    const present = async (): Promise<number> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'member_imports'`,
        )) as { n: number }[]
      )[0]?.n ?? 0;
    expect(await present()).toBe(1);
    await undoThrough(dataSource, 'MemberImports1795470869787');
    expect(await present()).toBe(0);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toBe(1);
  });

  it('ContactSupportLeads goes down and up again', async () => {
    const issue5 = [
      'captcha_solutions',
      'contact_messages',
      'leads',
      'outbox_emails',
      'support_issues',
    ];
    const present = async (): Promise<string[]> =>
      (
        (await dataSource.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY($1) ORDER BY table_name`,
          [issue5],
        )) as { table_name: string }[]
      ).map((row) => row.table_name);
    expect(await present()).toEqual(issue5);
    await undoThrough(dataSource, 'ContactSupportLeads1764028800000');
    expect(await present()).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toEqual(issue5);
  });

  it('ReferralLinksAndProspects goes down and up again', async () => {
    expect(await tables(dataSource)).toEqual(['prospects', 'referral_links']);
    await undoThrough(dataSource, 'ReferralLinksAndProspects1763856000000');
    expect(await tables(dataSource)).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await tables(dataSource)).toEqual(['prospects', 'referral_links']);
  });

  it('JoinFlags goes down and up again', async () => {
    const present = async (): Promise<number> =>
      (
        (await dataSource.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'join_flags'`,
        )) as { n: number }[]
      )[0].n;
    expect(await present()).toBe(1);
    await undoThrough(dataSource, 'JoinFlags1795460494289');
    expect(await present()).toBe(0);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toBe(1);
  });

  it('ThrottleCounters goes down and up again', async () => {
    const present = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT to_regclass('public.throttle_counters') IS NOT NULL AS present`,
        )) as {
          present: boolean;
        }[]
      )[0].present;
    expect(await present()).toBe(true);
    await undoThrough(dataSource, 'ThrottleCounters1795460524976');
    expect(await present()).toBe(false);
    await dataSource.runMigrations({ transaction: 'each' });
    expect(await present()).toBe(true);
  });
});

describe('migrations on several instances at once (integration)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ empty: true });
  });
  afterAll(() => db.drop());

  it('two instances starting together on a fresh database: both finish, each migration ran once', async () => {
    await expect(Promise.all([runMigrations(db.url), runMigrations(db.url)])).resolves.toEqual([
      undefined,
      undefined,
    ]);
    const dataSource = await createDataSource(db.url).initialize();
    try {
      const rows = (await dataSource.query(`SELECT name FROM migrations ORDER BY id`)) as {
        name: string;
      }[];
      expect(rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
      // A third start finds nothing to run.
      await runMigrations(db.url);
      expect(await dataSource.query(`SELECT count(*)::int AS n FROM migrations`)).toEqual([
        { n: MIGRATIONS.length },
      ]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('an instance starting while another migrates waits for its lock, then migrates', async () => {
    const other = await createTestDatabase({ empty: true });
    const holder = new Client({ connectionString: other.url });
    await holder.connect();
    try {
      // Another instance is migrating: it holds the lock.
      await holder.query(`SELECT pg_advisory_lock($1)`, [MIGRATIONS_LOCK_KEY]);
      let done = false;
      const starting = runMigrations(other.url).then(() => (done = true));
      const waiting = async () =>
        (
          await holder.query(
            `SELECT count(*)::int AS n FROM pg_locks
             WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        ).rows[0].n as number;
      for (let tries = 0; (await waiting()) === 0; tries++) {
        if (tries > 100) throw new Error('runMigrations never asked for the lock');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(done).toBe(false);
      expect(
        (await holder.query(`SELECT to_regclass('public.migrations') AS t`)).rows[0].t,
      ).toBeNull();
      await holder.query(`SELECT pg_advisory_unlock($1)`, [MIGRATIONS_LOCK_KEY]);
      await starting;
      expect((await holder.query(`SELECT count(*)::int AS n FROM migrations`)).rows[0].n).toBe(
        MIGRATIONS.length,
      );
    } finally {
      await holder.end();
      await other.drop();
    }
  });
});
