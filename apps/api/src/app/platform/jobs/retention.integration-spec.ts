import { randomUUID } from 'node:crypto';
import type { MemberRow } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { RETENTION_RULES, RetentionSweep } from './retention';

/**
 * Issue 31: sessions, member sign-in links and sessions, webhook message ids and kept emails grew
 * forever. The daily sweep deletes what is past its retention and keeps everything else.
 */
describe('retention sweep (integration)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Rows of `table` with the marker `tag` in `column`. */
  const count = async (table: string, column: string, tag: string) =>
    (
      (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM ${table} WHERE ${column}::text LIKE $1`,
        [`${tag}%`],
      )) as { n: number }[]
    )[0]?.n;

  it('deletes only what is past its retention, in every table it keeps', async () => {
    const { agent, user } = await t.signUp({ businessName: "Siobhán's Studio" });
    const businessId = user.business.id;
    const member = (
      await agent
        .post('/api/members')
        .send({
          memberName: "Zoë O'Neil-Hart",
          memberEmail: 'zoe@example.com',
          membershipPriceCents: 8_900,
          discountCents: 1_000,
        })
        .expect(201)
    ).body as MemberRow;
    const hex = randomUUID().slice(0, 8);
    const tag = `ret-${hex}`;
    const deliveryId = (suffix: 'old' | 'new'): string =>
      `${hex}-0000-4000-8000-00000000000${suffix === 'old' ? 1 : 2}`;
    // For each table: one row past retention (expired 31 days ago) and one within (29 days).
    for (const [suffix, age] of [
      ['old', '31 days'],
      ['new', '29 days'],
    ] as const) {
      await t.dataSource.query(
        `INSERT INTO sessions (user_id, refresh_token_hash, expires_at, family_id, signed_in_at)
         VALUES ($1, $2, now() - $3::interval, gen_random_uuid(), now() - interval '60 days')`,
        [user.id, `${tag}-${suffix}`, age],
      );
      for (const table of ['member_sessions', 'member_magic_links'])
        await t.dataSource.query(
          `INSERT INTO ${table} (business_id, member_id, token_hash, expires_at)
           VALUES ($1, $2, $3, now() - $4::interval)`,
          [businessId, member.id, `${tag}-${suffix}`, age],
        );
      await t.dataSource.query(
        `INSERT INTO mindbody_webhook_messages (message_id, business_id, received_at)
         VALUES ($1, $2, now() - $3::interval)`,
        [`${tag}-${suffix}`, businessId, age],
      );
      await t.dataSource.query(
        `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
         VALUES ($1, $2, now() - $3::interval)`,
        [user.id, `${tag}-${suffix}`, age],
      );
      await t.dataSource.query(
        `INSERT INTO outbox_emails ("to", subject, text, created_at)
         VALUES ('zoe@example.com', $1, 'Hello', now() - $2::interval)`,
        [`${tag}-${suffix}`, age],
      );
      await t.dataSource.query(
        `INSERT INTO stripe_events (id, type, received_at) VALUES ($1, 'invoice.paid', now() - $2::interval)`,
        [`${tag}-${suffix}`, age],
      );
      // Keyed by a job's uuid: the tag in the uuid's first group ('old' 0…1, 'new' 0…2).
      await t.dataSource.query(
        `INSERT INTO mail_deliveries (job_id, status, claimed_at) VALUES ($1, 'sent', now() - $2::interval)`,
        [deliveryId(suffix), age],
      );
    }
    const marked = {
      sessions: 'refresh_token_hash',
      member_sessions: 'token_hash',
      member_magic_links: 'token_hash',
      mindbody_webhook_messages: 'message_id',
      outbox_emails: 'subject',
      password_reset_tokens: 'token_hash',
      stripe_events: 'id',
    } as const;
    expect(RETENTION_RULES.map((rule) => rule.table).sort()).toEqual(
      [...Object.keys(marked), 'mail_deliveries'].sort(),
    );

    const deleted = await t.app.get(RetentionSweep).sweep();

    for (const [table, column] of Object.entries(marked)) {
      expect({ table, old: await count(table, column, `${tag}-old`) }).toEqual({ table, old: 0 });
      expect({ table, kept: await count(table, column, `${tag}-new`) }).toEqual({ table, kept: 1 });
      expect(deleted[table]).toBeGreaterThanOrEqual(1);
    }
    const delivery = async (suffix: 'old' | 'new'): Promise<number> =>
      (
        (await t.dataSource.query(
          `SELECT count(*)::int AS n FROM mail_deliveries WHERE job_id = $1`,
          [deliveryId(suffix)],
        )) as { n: number }[]
      )[0]?.n ?? 0;
    expect({ old: await delivery('old'), kept: await delivery('new') }).toEqual({
      old: 0,
      kept: 1,
    });
    expect(deleted.mail_deliveries).toBeGreaterThanOrEqual(1);
    // The owner's live session is untouched: still signed in.
    await agent.get('/api/members').expect(200);
  });
});
