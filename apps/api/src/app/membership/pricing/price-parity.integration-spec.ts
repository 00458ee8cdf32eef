import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database';
import { effectivePriceCents, isCountingBranch, rewardCapped, rowPriceCents } from './price';
import {
  approvalPrefillColumns,
  countingBranch,
  effectivePrice,
  membershipEnded,
  priceLinesFrom,
  businessTimeZone,
  rewardedThisYear,
  rewardRuleColumn,
  rewardYear as rewardYearSql,
  rowPrice,
  stripeBilled,
} from './price.sql';
import {
  approvalPrefill,
  businessLocale,
  countryOptions,
  owedRewardCapped,
  rewardYear,
  type RewardPriceRule,
} from '@grove/contracts';
import {
  INTEGRATION_DISCOUNT,
  SUMMARY_COLUMNS,
  SUMMARY_JOINS,
  toSummary,
  type SummarySqlRow,
} from '../members/members.repository';
import { toMemberRow } from '../members/member-row';

/** One member row as stored, with what the SQL rule says of it. */
interface ParityRow {
  id: string;
  name: string;
  referred_by_id: string | null;
  membership_price_cents: number;
  discount_cents: number;
  counting_started: boolean;
  ended: boolean;
  suspended: boolean;
  managed: boolean;
  autopay_known: boolean;
  on_referral_cents: number | null;
  for_referee_cents: number | null;
  sql_counting: boolean;
  sql_price: number | null;
  sql_row_price: number;
  reward_rule: RewardPriceRule;
}

/**
 * The price rule's two definitions agree (docs/architecture.md#api-areas): the SQL of price.sql.ts
 * and the TypeScript of price.ts, run over the same member rows on PostgreSQL, row by row — a
 * hand-managed business (pending and counting branches, a discount over the price), two
 * Mindbody businesses (saved discounts: suspended, ended, referred and unpriced members; and
 * discounts not saved yet), and the referrer's reward (docs/product.md#referrer-reward): a business
 * with a 50% and a yearly cap, one with a cap of three rewarded branches, and one whose reward is
 * a one-off credit (no ongoing discount); and the year that cap counts in, the gym's (a credit
 * business in Honolulu with one friend rewarded a year).
 */
describe('the price in SQL and in TypeScript (membership/pricing)', () => {
  let db: TestDatabase;
  let client: Client;
  const businesses: string[] = [];

  const business = async (name: string): Promise<string> => {
    const {
      rows: [row],
    } = await client.query<{ id: string }>(
      `INSERT INTO businesses (name, website, phone) VALUES ($1, 'parity.example.com', '0412 345 678') RETURNING id`,
      [name],
    );
    businesses.push(row.id);
    return row.id;
  };

  /** Inserts a member; `state` sets the columns the rule reads, as the flows leave them. */
  const member = async (
    businessId: string,
    name: string,
    priceCents: number,
    discountCents: number,
    state: {
      referredBy?: string;
      counting?: boolean;
      clientId?: string;
      autopayCents?: number | null;
      ended?: boolean;
      suspended?: boolean;
    } = {},
  ): Promise<string> => {
    const {
      rows: [row],
    } = await client.query<{ id: string }>(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents,
         referred_by_id, mindbody_client_id, mindbody_priced_at, mindbody_autopay_cents)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7, CASE WHEN $8::int IS NULL THEN NULL ELSE now() END, $8)
       RETURNING id`,
      [
        businessId,
        name,
        `${name.toLowerCase().replace(/\W+/g, '.')}@parity.example.com`,
        priceCents,
        discountCents,
        state.referredBy ?? null,
        state.clientId ?? null,
        state.clientId
          ? state.autopayCents === undefined
            ? priceCents
            : state.autopayCents
          : null,
      ],
    );
    // The counting rule's trigger decides branch_counting_since on insert; set the state wanted.
    await client.query(
      `UPDATE members SET branch_counting_since = CASE WHEN $2 THEN now() - interval '40 days' END,
         mindbody_cancelled_at = CASE WHEN $3 THEN now() END, mindbody_suspended_at = CASE WHEN $4 THEN now() END
       WHERE id = $1`,
      [
        row.id,
        state.referredBy !== undefined && state.counting !== false,
        !!state.ended,
        !!state.suspended,
      ],
    );
    return row.id;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();

    const gym = await business('Parity Hand Gym');
    const olivia = await member(gym, "Siobhán O'Brien", 8_900, 1_000);
    await member(gym, 'Anne-Marie Dubois', 6_900, 800, { referredBy: olivia });
    await member(gym, 'Ben O’Connor', 5_900, 500, { referredBy: olivia, counting: false });
    const liam = await member(gym, 'Liam Nguyen', 3_000, 2_000);
    await member(gym, 'Mia Kelly', 4_900, 500, { referredBy: liam });
    await member(gym, 'Noah Patel', 3_900, 500, { referredBy: liam });
    await member(gym, 'Grace Murphy', 6_900, 700);

    const mindbody = await business('Parity Mindbody Gym');
    await client.query(
      `INSERT INTO mindbody_integrations (business_id, stage, discount_on_referral_cents, discount_for_referee_cents)
       VALUES ($1, 4, 1000, 550)`,
      [mindbody],
    );
    const ava = await member(mindbody, 'Ava Walker', 8_900, 0, { clientId: '100001' });
    await member(mindbody, 'Jack Thompson', 7_900, 0, { clientId: '100002', referredBy: ava });
    await member(mindbody, 'Isla Robinson', 7_900, 0, {
      clientId: '100003',
      referredBy: ava,
      suspended: true,
    });
    await member(mindbody, 'Henry Wilson', 7_900, 0, {
      clientId: '100004',
      referredBy: ava,
      ended: true,
    });
    await member(mindbody, 'Ella Brown', 5_900, 0, { clientId: '100005', autopayCents: null });
    await member(mindbody, 'Lucas Martin', 2_000, 0, {
      clientId: '100006',
      referredBy: ava,
      counting: false,
    });

    // The referrer's reward: caps of 50% and $240 a year ($20 a month), and a one-off credit.
    const capped = await business('Parity Capped Gym');
    await client.query(
      `UPDATE businesses SET reward_cap_percent = 50, reward_yearly_cap_cents = 24000 WHERE id = $1`,
      [capped],
    );
    const siobhan = await member(capped, 'Siobhán Capped', 3_000, 1_000); // 50% ($15) binds
    await member(capped, 'Ana-Sofía Ruiz', 5_000, 0, { referredBy: siobhan });
    await member(capped, 'Zoë D’Arcy-Nguyễn', 5_000, 0, { referredBy: siobhan });
    const kenji = await member(capped, 'Kenji Watanabe', 9_900, 1_500); // yearly ($20/month) binds
    await member(capped, 'Priya Sharma', 5_000, 0, { referredBy: kenji });
    await member(capped, 'Tomás García', 5_000, 0, { referredBy: kenji });
    const credit = await business('Parity Credit Gym');
    await client.query(
      `UPDATE businesses SET referrer_reward = '{"kind":"credit","creditCents":2500}' WHERE id = $1`,
      [credit],
    );
    const amara = await member(credit, 'Amara Okafor', 6_000, 1_000);
    await member(credit, 'Ben Credit', 5_000, 0, { referredBy: amara });
    // The cap on rewarded branches: three friends at most, a fourth counts but takes nothing off.
    const three = await business('Parity Three Friends Gym');
    await client.query(`UPDATE businesses SET reward_max_branches = 3 WHERE id = $1`, [three]);
    const grace = await member(three, 'Grace Okonkwo', 10_000, 1_000);
    for (const friend of ['Mateus Silva', 'Ngozi Adeyemi', 'Søren Kjær', 'Fatima Zahra'])
      await member(three, friend, 5_000, 0, { referredBy: grace });

    const unsaved = await business('Parity Unsaved Gym');
    await client.query(`INSERT INTO mindbody_integrations (business_id) VALUES ($1)`, [unsaved]);
    const zoe = await member(unsaved, 'Zoë Chen', 9_900, 1_500, { clientId: '200001' });
    await member(unsaved, 'Oliver Chen', 8_900, 0, { clientId: '200002', referredBy: zoe });

    // A gym billing on Stripe (issue 32): $10 a referral, $3 for the friend; one friend's
    // subscription ended (a lapse: she counts no more), one kept by hand (the business's own).
    const stripeGym = await business('Parity Stripe Gym');
    await client.query(
      `INSERT INTO stripe_member_integrations (business_id, api_key_sealed, key_last4, livemode,
         discount_on_referral_cents, discount_for_referee_cents) VALUES ($1, 'v1.x', 'abcd', false, 1000, 300)`,
      [stripeGym],
    );
    const subscribed = async (memberId: string, ended = false) => {
      await client.query(
        `INSERT INTO stripe_member_subscriptions (business_id, member_id, stripe_subscription_id,
           stripe_customer_id, currency, price_cents, ended_at)
         SELECT business_id, id, 'sub_' || id, 'cus_' || id, 'eur', membership_price_cents,
           CASE WHEN $2 THEN now() END FROM members WHERE id = $1`,
        [memberId, ended],
      );
      if (ended)
        await client.query(`UPDATE members SET stripe_ended_at = now() WHERE id = $1`, [memberId]);
    };
    const ana = await member(stripeGym, 'Ana-Sofía Stripe', 6_000, 0);
    await subscribed(ana);
    await subscribed(await member(stripeGym, 'Zoë Stripe', 4_500, 0, { referredBy: ana }));
    await subscribed(await member(stripeGym, 'Kenji Stripe', 5_000, 0, { referredBy: ana }), true);
    await member(stripeGym, 'Priya Hand', 5_000, 700, { referredBy: ana });
  });

  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  const rows = async (): Promise<ParityRow[]> =>
    (
      await client.query<ParityRow>(
        `SELECT m.id, m.name, m.referred_by_id, m.membership_price_cents, m.discount_cents,
           m.branch_counting_since IS NOT NULL AS counting_started,
           ${membershipEnded('m')} AS ended, m.mindbody_suspended_at IS NOT NULL AS suspended,
           (m.mindbody_client_id IS NOT NULL OR ${stripeBilled('m')}) AS managed,
           (m.mindbody_priced_at IS NOT NULL AND m.mindbody_autopay_cents IS NOT NULL
             OR m.mindbody_client_id IS NULL AND ${stripeBilled('m')}) AS autopay_known,
           CASE WHEN m.mindbody_client_id IS NULL AND ${stripeBilled('m')} THEN si.discount_on_referral_cents
             ELSE i.discount_on_referral_cents END AS on_referral_cents,
           CASE WHEN m.mindbody_client_id IS NULL AND ${stripeBilled('m')} THEN si.discount_for_referee_cents
             ELSE i.discount_for_referee_cents END AS for_referee_cents,
           ${countingBranch('m')} AS sql_counting, ${effectivePrice('m')} AS sql_price,
           ${rowPrice('m', `(SELECT count(*) FROM members b WHERE b.business_id = m.business_id AND b.referred_by_id = m.id AND ${countingBranch('b')})::int`)} AS sql_row_price,
           ${rewardRuleColumn('m')}
         FROM members m LEFT JOIN mindbody_integrations i ON i.business_id = m.business_id
         LEFT JOIN stripe_member_integrations si ON si.business_id = m.business_id
         WHERE m.business_id = ANY($1::uuid[]) ORDER BY m.name`,
        [businesses],
      )
    ).rows;

  const typescript = (all: ParityRow[], row: ParityRow) => {
    const branchFacts = (r: ParityRow) => ({
      isBranch: r.referred_by_id !== null,
      countingStarted: r.counting_started,
      ended: r.ended,
      suspended: r.suspended,
    });
    const counting = all.filter(
      (r) => r.referred_by_id === row.id && isCountingBranch(branchFacts(r)),
    );
    return {
      counting: isCountingBranch(branchFacts(row)),
      rowPrice: rowPriceCents({
        managed: row.managed,
        membershipPriceCents: row.membership_price_cents,
        discountCents: row.discount_cents,
        countingBranches: counting.length,
        rule: row.reward_rule,
      }),
      price: effectivePriceCents({
        membershipPriceCents: row.membership_price_cents,
        discountCents: row.discount_cents,
        countingBranches: counting.length,
        isBranch: row.referred_by_id !== null,
        managed: row.managed,
        autopayKnown: row.autopay_known,
        integration:
          row.on_referral_cents === null
            ? null
            : {
                onReferralCents: row.on_referral_cents,
                forRefereeCents: row.for_referee_cents ?? 0,
              },
        rule: row.reward_rule,
      }),
      capped: rewardCapped({
        managed: row.managed,
        membershipPriceCents: row.membership_price_cents,
        discountCents: row.discount_cents,
        countingBranches: counting.length,
        rule: row.reward_rule,
      }),
    };
  };

  it('every member: the same counting branch, the same price on the Branches table and the same effective price', async () => {
    const all = await rows();
    expect(all).toHaveLength(32);
    const sql = all.map((row) => ({
      name: row.name,
      counting: row.sql_counting,
      rowPrice: row.sql_row_price,
      price: row.sql_price,
    }));
    const ts = all.map((row) => {
      const { capped, ...rest } = typescript(all, row);
      void capped;
      return { name: row.name, ...rest };
    });
    expect(ts).toEqual(sql);
    // The fixtures reach every case the rule has (not a comparison of two empty answers).
    const byName = new Map(sql.map((row) => [row.name, row]));
    expect(byName.get("Siobhán O'Brien")?.price).toBe(7_900); // one counting, one pending branch
    expect(byName.get('Liam Nguyen')?.price).toBe(0); // discount over the price
    expect(byName.get('Ava Walker')?.price).toBe(7_900); // suspended, ended and pending branches do not count
    expect(byName.get('Jack Thompson')?.price).toBe(7_350); // a referred Mindbody member
    expect(byName.get('Ella Brown')?.price).toBeNull(); // autopay not read yet
    expect(byName.get('Zoë Chen')?.price).toBe(9_900); // discounts not saved yet
    expect(byName.get('Siobhán Capped')?.price).toBe(1_500); // 50% of $30 binds ($20 wanted)
    expect(byName.get('Kenji Watanabe')?.price).toBe(7_900); // $240 a year: $20 a month ($30 wanted)
    expect(byName.get('Amara Okafor')?.price).toBe(6_000); // a credit reward: the price stays
    expect(byName.get('Grace Okonkwo')?.price).toBe(7_000); // 4 counting branches, 3 rewarded
    // Stripe: the friend whose subscription ended does not count; the one kept by hand does.
    expect(byName.get('Ana-Sofía Stripe')?.price).toBe(4_000);
    expect(byName.get('Ana-Sofía Stripe')?.rowPrice).toBe(6_000); // the bill is Stripe's
    expect(byName.get('Zoë Stripe')?.price).toBe(4_200); // the discount for referee
    expect(byName.get('Kenji Stripe')?.counting).toBe(false);
    expect(byName.get('Priya Hand')?.price).toBe(5_000);
    const cappedNames = all.filter((row) => typescript(all, row).capped).map((row) => row.name);
    expect(cappedNames.sort()).toEqual([
      'Grace Okonkwo',
      'Kenji Watanabe',
      'Liam Nguyen',
      'Siobhán Capped',
    ]);
  });

  it('the ledger lines SQL writes carry the same prices', async () => {
    await client.query(
      priceLinesFrom({
        rows: 'members r',
        reason: `'backfill'`,
        branchId: 'NULL::uuid',
        cause: `'parity'`,
      }),
    );
    const all = await rows();
    const { rows: lines } = await client.query<{ member_id: string; new_price_cents: number }>(
      `SELECT member_id, new_price_cents FROM price_changes WHERE business_id = ANY($1::uuid[])`,
      [businesses],
    );
    const written = new Map(lines.map((line) => [line.member_id, line.new_price_cents]));
    for (const row of all) {
      const { price } = typescript(all, row);
      // An unpriced member gets no line; a member whose Mindbody membership ended gets none before it had one.
      const expected = price === null || (row.managed && row.ended) ? undefined : price;
      expect({ name: row.name, price: written.get(row.id) }).toEqual({
        name: row.name,
        price: expected,
      });
    }
  });

  it("a friend's approval prefill: the prospects page's SQL and `approvalPrefill` of the referrer's row agree", async () => {
    // A Mindbody member priced without an autopay contract (the one price state the rows above lack).
    const chloe = await member(businesses[1], 'Chloé Martin', 6_500, 0, { clientId: '100007' });
    await client.query(
      `UPDATE members SET mindbody_priced_at = now(), mindbody_autopay_cents = NULL WHERE id = $1`,
      [chloe],
    );
    // Defaults: a hand business with both, the Mindbody one with a price only, the unsaved one none.
    await client.query(
      `UPDATE businesses SET default_membership_price_cents = d.price, default_discount_cents = d.discount
       FROM (VALUES ($1::uuid, 7_000, 600), ($2::uuid, 7_500, NULL)) d(id, price, discount) WHERE businesses.id = d.id`,
      [businesses[0], businesses[1]],
    );
    const compared: { name: string; price: number | null; discount: number | null }[] = [];
    for (const businessId of businesses) {
      const { rows: referrers } = await client.query<
        SummarySqlRow & {
          prefill_price_cents: number | null;
          prefill_discount_cents: number | null;
        }
      >(
        `SELECT ${SUMMARY_COLUMNS}, ${INTEGRATION_DISCOUNT},
           ${approvalPrefillColumns('m', '$1')}
         FROM members m ${SUMMARY_JOINS} WHERE m.business_id = $1 ORDER BY m.name`,
        [businessId],
      );
      const {
        rows: [defaults],
      } = await client.query<{ membershipPriceCents: number | null; discountCents: number | null }>(
        `SELECT default_membership_price_cents AS "membershipPriceCents", default_discount_cents AS "discountCents"
         FROM businesses WHERE id = $1`,
        [businessId],
      );
      // No referring member (a friend of the business's own join page): the business's defaults.
      const {
        rows: [noReferrer],
      } = await client.query<{
        prefill_price_cents: number | null;
        prefill_discount_cents: number | null;
      }>(
        `SELECT ${approvalPrefillColumns('m', '$1')}
         FROM businesses b LEFT JOIN members m ON false WHERE b.id = $1`,
        [businessId],
      );
      expect(approvalPrefill(null, defaults)).toEqual({
        membershipPriceCents: noReferrer.prefill_price_cents,
        discountCents: noReferrer.prefill_discount_cents,
      });
      for (const row of referrers) {
        const ts = approvalPrefill(toMemberRow(toSummary(row), []), defaults);
        expect({ name: row.name, ...ts }).toEqual({
          name: row.name,
          membershipPriceCents: row.prefill_price_cents,
          discountCents: row.prefill_discount_cents,
        });
        compared.push({
          name: row.name,
          price: ts.membershipPriceCents,
          discount: ts.discountCents,
        });
      }
    }
    expect(compared).toHaveLength(33);
    // The fixtures reach every case of the rule.
    const byName = new Map(compared.map((row) => [row.name, row]));
    expect(byName.get("Siobhán O'Brien")).toMatchObject({ price: 8_900, discount: 1_000 }); // hand: its own
    expect(byName.get('Jack Thompson')).toMatchObject({ price: 7_900, discount: 1_000 }); // priced Mindbody member
    expect(byName.get('Ella Brown')?.price).toBe(7_500); // not priced yet: the default price
    expect(byName.get('Chloé Martin')?.price).toBe(7_500); // no autopay contract: the default price
    expect(byName.get('Henry Wilson')?.price).toBe(7_500); // membership ended: the default price
    expect(byName.get('Oliver Chen')).toMatchObject({ price: 8_900, discount: 0 }); // discounts not saved yet
    // Billed on Stripe: the Stripe integration's discount; kept by hand: its own.
    expect(byName.get('Ana-Sofía Stripe')).toMatchObject({ price: 6_000, discount: 1_000 });
    expect(byName.get('Priya Hand')).toMatchObject({ price: 5_000, discount: 700 });
  });
  it("the cap's year is the gym's: a friend counting at 23:30 on 31 December in Honolulu is the old year's, in SQL and in TypeScript", async () => {
    // The business's zone: the stored one PostgreSQL knows, else the country's default, as contracts resolve it.
    const countries = countryOptions().map(({ code }) => code);
    const { rows: zones } = await client.query<{
      country: string;
      none: string;
      stored: string;
      unknown: string;
    }>(
      `SELECT c AS country, business_time_zone(c, NULL) AS none,
         business_time_zone(c, 'Pacific/Honolulu') AS stored, business_time_zone(c, 'Mars/Olympus_Mons') AS unknown
       FROM unnest($1::text[]) c`,
      [countries],
    );
    expect(zones).toEqual(
      countries.map((country) => ({
        country,
        none: businessLocale(country).timeZone,
        stored: businessLocale(country, 'Pacific/Honolulu').timeZone,
        unknown: businessLocale(country, 'Mars/Olympus_Mons').timeZone,
      })),
    );

    // A gym in Honolulu (UTC−10) owing a $25 credit per friend, one friend rewarded a year.
    const {
      rows: [{ id: gym }],
    } = await client.query<{ id: string }>(
      `INSERT INTO businesses (name, website, phone, country, time_zone, referrer_reward, reward_max_branches)
       VALUES ('Parity Honolulu Gym', 'parity.example.com', '+1 808 555 0147', 'US', 'Pacific/Honolulu',
         '{"kind":"credit","creditCents":2500}', 1) RETURNING id`,
    );
    const leilani = await member(gym, 'Leilani Kahananui', 9_000, 0);
    const keoni = await member(gym, 'Keoni Akana', 9_000, 0, { referredBy: leilani });
    // Keoni started counting at 23:30 on 31 December last year, Honolulu time (09:30 on 1 January UTC).
    await client.query(
      `UPDATE referrer_rewards_owed SET counted_at = make_timestamp(
         extract(year FROM now() AT TIME ZONE 'Pacific/Honolulu')::int - 1, 12, 31, 23, 30, 0) AT TIME ZONE 'Pacific/Honolulu'
       WHERE branch_id = $1`,
      [keoni],
    );
    await member(gym, 'Mālie Kealoha', 9_000, 0, { referredBy: leilani });
    await member(gym, "Siobhán O'Brien", 9_000, 0, { referredBy: leilani });

    const { rows: owed } = await client.query<{
      name: string;
      counted_at: Date;
      capped: boolean;
      sql_year: number;
      country: string;
      time_zone: string | null;
      max_branches: number | null;
    }>(
      `SELECT f.name, o.counted_at, o.capped, ${rewardYearSql('o.counted_at', businessTimeZone('b'))} AS sql_year,
         b.country, b.time_zone, b.reward_max_branches AS max_branches
       FROM referrer_rewards_owed o JOIN members f ON f.id = o.branch_id JOIN businesses b ON b.id = o.business_id
       WHERE o.business_id = $1 ORDER BY o.counted_at, f.name`,
      [gym],
    );
    const zone = businessLocale(owed[0].country, owed[0].time_zone).timeZone;
    const rewarded: Date[] = [];
    const typescript = owed.map((row) => {
      const capped = owedRewardCapped(row.max_branches, rewarded, row.counted_at, zone);
      if (!capped) rewarded.push(row.counted_at);
      return { name: row.name, year: rewardYear(row.counted_at, zone), capped };
    });
    expect(typescript).toEqual(
      owed.map((row) => ({ name: row.name, year: row.sql_year, capped: row.capped })),
    );
    const thisYear = rewardYear(new Date(), zone);
    expect(typescript).toEqual([
      { name: 'Keoni Akana', year: thisYear - 1, capped: false },
      { name: 'Mālie Kealoha', year: thisYear, capped: false },
      { name: "Siobhán O'Brien", year: thisYear, capped: true },
    ]);

    // The rewards of this year the member page counts: Mālie's (Keoni's is last year's, Siobhán's capped).
    const {
      rows: [{ sql_count }],
    } = await client.query<{ sql_count: number }>(
      `SELECT ${rewardedThisYear('$1', businessTimeZone('b'))} AS sql_count FROM businesses b WHERE b.id = $2`,
      [leilani, gym],
    );
    expect(sql_count).toBe(rewarded.filter((when) => rewardYear(when, zone) === thisYear).length);
    expect(sql_count).toBe(1);
  });
});
