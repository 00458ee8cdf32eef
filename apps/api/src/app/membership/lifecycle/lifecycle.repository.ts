import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PriceChangeReason } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { effectivePrice, PRICE_COLUMNS, priceLinesFrom } from '../pricing/price.sql';
import { writeBatches } from '../../platform/database/write-batches';

/**
 * What a lifecycle fact is about (`lifecycle_facts.kind`, docs/architecture.md#lifecycle-facts).
 * Each kind's `event_key`:
 * - `link_created:<link id>`: a member got a link where none was live;
 * - `link_rotated:<new link id>`: a member's link was replaced by a new code (the old one revoked
 *   in the same transaction; the fact carries the NEW link's id);
 * - `link_revoked:<link id>`: 'Revoke' on Referral Links;
 * - `prospect_joined:<prospect id>`: a friend was queued as a prospective member (a repeat join,
 *   or a flagged join, is no new prospect and writes nothing);
 * - `prospect_approved:<prospect id>`, `prospect_removed:<prospect id>` (by hand; a Mindbody
 *   prospect that became a member leaves the queue with no fact: its member_added tells it);
 * - `branch_added:<branch id>`: a member created as a branch (add branch, approval, a Mindbody
 *   client stored under its referrer); `branch_added:<branch id>:<referrer id>:<time>` when an
 *   existing member is attached later (Mindbody ReferredBy);
 * - `branch_removed:<branch id>:<referrer id>:<time>`;
 * - `member_added:<member id>`;
 * - `member_ended:<member id>:<time>`: removed by hand (the removal's time), a Mindbody
 *   membership cancelled (its `mindbody_cancelled_at`) or a subscription on the business's Stripe
 *   ended (its member's `stripe_ended_at`, issue 32), so a re-import or a replayed webhook of
 *   the same end writes nothing new.
 * `<time>` is UTC ISO 8601 with microseconds (`keyTime`).
 */
export type FactKind =
  | 'link_created'
  | 'link_rotated'
  | 'link_revoked'
  | 'prospect_joined'
  | 'prospect_approved'
  | 'prospect_removed'
  | 'branch_added'
  | 'branch_removed'
  | 'member_added'
  | 'member_ended';

/** How a fact came about (`lifecycle_facts.source`); null where it does not apply (links). */
export type FactSource =
  'manual' | 'import' | 'approval' | 'mindbody' | 'stripe' | 'csv' | 'backfill';

/**
 * Why a member's effective price changed (`price_changes.reason`; the type and the owner's words
 * for it, `PRICE_CHANGE_REASON_TEXT`, live in the contracts). A member's ledger starts with
 * 'member_added' (whatever caused the first line); 'branch_counting' and 'branch_lapsed' are the
 * qualification rule's (a branch started or stopped counting, `BranchQualificationService`,
 * docs/product.md#branch-qualification); 'backfill' is the opening line the data migration gives
 * members that existed before the ledger.
 */
export type { PriceChangeReason };

/** One lifecycle fact to record. Ids are uuids of the recording business's rows. */
export interface LifecycleFact {
  kind: FactKind;
  /** Stable per real event (see `FactKind`): a second recording of the same key writes nothing. */
  eventKey: string;
  /** Default: now() (the transaction's start). */
  occurredAt?: Date;
  memberId?: string | null;
  referrerId?: string | null;
  referralLinkId?: string | null;
  prospectId?: string | null;
  source?: FactSource | null;
}

/** One price ledger line given as it is (prices in cents). */
export interface PriceChange {
  memberId: string;
  reason: PriceChangeReason;
  /** Null for the first line of a member's ledger. */
  oldPriceCents: number | null;
  newPriceCents: number;
  /** What the member pays before discounts at that moment. */
  membershipPriceCents: number;
  /** The branch (member id) whose addition or removal caused it, if any. */
  branchId?: string | null;
  eventKey: string;
  occurredAt?: Date;
}

/**
 * Members whose effective price may just have changed, priced by the database from their rows as
 * they are now (see `effectivePrice`).
 */
export interface PriceCause {
  /** The reason when the member already has a ledger; 'member_added' is used for a first line. */
  reason: PriceChangeReason;
  /** The branch that caused it (branch added or removed), if any. */
  branchId?: string | null;
  /**
   * What makes the line's `event_key` (`price:<member id>:<cause>`) stable: the causing fact's
   * event key (e.g. `branch_added:<branch id>`), or for a hand edit a fresh uuid.
   */
  cause: string;
}

/** Something that runs SQL: a DataSource, an EntityManager (a transaction's) or a QueryRunner. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** SQL: a timestamptz expression as the `<time>` of an event key (UTC ISO 8601, microseconds). */
export const keyTime = (expression: string): string =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The columns of `lifecycle_facts` a fact insert names, in this order. */
export const FACT_COLUMNS =
  'business_id, kind, member_id, referrer_id, referral_link_id, prospect_id, source, event_key';

/**
 * SQL: counts one join page opening for each row of `rows` (a CTE or VALUES list with columns
 * `business_id`, `link_id` and `channel`, one of `JOIN_VIAS`) on today's UTC date: an UPSERT
 * of `join_page_visits` per link, day and channel, no personal data. The public join page's link
 * lookup runs it in its own statement (one round trip).
 */
export const countVisitsFrom = (rows: string): string =>
  `INSERT INTO join_page_visits (business_id, referral_link_id, day, channel)
   SELECT v.business_id, v.link_id, (now() AT TIME ZONE 'UTC')::date, v.channel FROM ${rows} v
   ON CONFLICT (referral_link_id, day, channel) DO UPDATE SET visits = join_page_visits.visits + 1`;

/** The idempotency clause of every fact and ledger insert. */
export const ON_EVENT_KEY = 'ON CONFLICT (business_id, event_key) DO NOTHING';

/**
 * Facts, ledger lines or members per INSERT: a 10,000-member import's facts are a few short
 * statements instead of one that can near `DATABASE_STATEMENT_TIMEOUT_MS` on a busy machine.
 */
export const LIFECYCLE_ROWS_PER_STATEMENT = 1_000;

/** Runs `insert` on each batch of `items` in turn (the caller's transaction) and adds the counts. */
async function insertInBatches<T>(
  items: T[],
  insert: (batch: T[]) => Promise<number>,
): Promise<number> {
  let inserted = 0;
  for (const batch of writeBatches(items, LIFECYCLE_ROWS_PER_STATEMENT))
    inserted += await insert(batch);
  return inserted;
}

/**
 * The only way to write `lifecycle_facts`, `join_page_visits` and `price_changes` outside a
 * statement of another repository that records in the same statement as its change (the public
 * join, the Mindbody bulk writes: they use `FACT_COLUMNS`, `ON_EVENT_KEY` and `keyTime` from here,
 * and `PRICE_COLUMNS` and `priceLinesFrom` from membership/pricing). TENANCY: every method takes the `BusinessScope`
 * first and writes only rows of its business; ids of other businesses are never read
 * (`insertEffectivePrices` reads members of the scope only).
 */
@Injectable()
export class LifecycleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts facts of this business, each once per `event_key`, {@link LIFECYCLE_ROWS_PER_STATEMENT}
   * per statement.
   * @param runner the transaction of the change they record (default: statements of their own;
   *   a retry after a failure between two of them writes only the rest, by `event_key`)
   * @returns how many were new
   */
  insertFacts(
    scope: BusinessScope,
    facts: LifecycleFact[],
    runner: SqlRunner = this.dataSource,
  ): Promise<number> {
    return insertInBatches(facts, async (batch) => this.insertFactBatch(scope, batch, runner));
  }

  private async insertFactBatch(
    scope: BusinessScope,
    facts: LifecycleFact[],
    runner: SqlRunner,
  ): Promise<number> {
    const rows = (await runner.query(
      `INSERT INTO lifecycle_facts (${FACT_COLUMNS}, occurred_at)
       SELECT $1, f.kind, f.member_id, f.referrer_id, f.referral_link_id, f.prospect_id, f.source, f.event_key,
         COALESCE(f.occurred_at, now())
       FROM unnest($2::text[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::text[], $8::text[], $9::timestamptz[])
         AS f(kind, member_id, referrer_id, referral_link_id, prospect_id, source, event_key, occurred_at)
       ${ON_EVENT_KEY}
       RETURNING 1`,
      [
        scope.businessId,
        facts.map((fact) => fact.kind),
        facts.map((fact) => fact.memberId ?? null),
        facts.map((fact) => fact.referrerId ?? null),
        facts.map((fact) => fact.referralLinkId ?? null),
        facts.map((fact) => fact.prospectId ?? null),
        facts.map((fact) => fact.source ?? null),
        facts.map((fact) => fact.eventKey),
        facts.map((fact) => fact.occurredAt ?? null),
      ],
    )) as unknown[];
    return rows.length;
  }

  /**
   * Inserts ledger lines of this business as given, each once per `event_key`,
   * {@link LIFECYCLE_ROWS_PER_STATEMENT} per statement.
   * @returns how many were new
   */
  insertPriceChanges(
    scope: BusinessScope,
    changes: PriceChange[],
    runner: SqlRunner = this.dataSource,
  ): Promise<number> {
    return insertInBatches(changes, async (batch) =>
      this.insertPriceChangeBatch(scope, batch, runner),
    );
  }

  private async insertPriceChangeBatch(
    scope: BusinessScope,
    changes: PriceChange[],
    runner: SqlRunner,
  ): Promise<number> {
    const rows = (await runner.query(
      `INSERT INTO price_changes (${PRICE_COLUMNS}, occurred_at)
       SELECT $1, c.member_id, c.reason, c.old_price_cents, c.new_price_cents, c.membership_price_cents,
         c.branch_id, c.event_key, COALESCE(c.occurred_at, now())
       FROM unnest($2::uuid[], $3::text[], $4::int[], $5::int[], $6::int[], $7::uuid[], $8::text[], $9::timestamptz[])
         AS c(member_id, reason, old_price_cents, new_price_cents, membership_price_cents, branch_id, event_key, occurred_at)
       ${ON_EVENT_KEY}
       RETURNING 1`,
      [
        scope.businessId,
        changes.map((change) => change.memberId),
        changes.map((change) => change.reason),
        changes.map((change) => change.oldPriceCents),
        changes.map((change) => change.newPriceCents),
        changes.map((change) => change.membershipPriceCents),
        changes.map((change) => change.branchId ?? null),
        changes.map((change) => change.eventKey),
        changes.map((change) => change.occurredAt ?? null),
      ],
    )) as unknown[];
    return rows.length;
  }

  /**
   * Writes a ledger line for each given member of this business whose effective price
   * (`effectivePrice`, computed in this statement from the rows as they are now) differs from
   * the last line of its ledger: old = that line's new price (null: the line is the first, reason
   * 'member_added'), new = the price now. A member whose price did not change, has no known price,
   * or is not of this business gets nothing. With reason 'membership_ended' the new price is 0
   * (the member is about to be removed; a member without a ledger gets no line). Run it in the change's transaction AFTER the change,
   * with the members' rows locked, so two concurrent changes cannot write the same old price.
   * Members are read {@link LIFECYCLE_ROWS_PER_STATEMENT} per statement.
   * @returns how many lines were written
   */
  insertEffectivePrices(
    scope: BusinessScope,
    memberIds: string[],
    cause: PriceCause,
    runner: SqlRunner = this.dataSource,
  ): Promise<number> {
    return insertInBatches(memberIds, async (batch) =>
      this.insertEffectivePriceBatch(scope, batch, cause, runner),
    );
  }

  private async insertEffectivePriceBatch(
    scope: BusinessScope,
    memberIds: string[],
    cause: PriceCause,
    runner: SqlRunner,
  ): Promise<number> {
    const rows = (await runner.query(
      `${priceLinesFrom({
        rows: '(SELECT * FROM members WHERE business_id = $1 AND id = ANY($2::uuid[])) r',
        reason: '$3::text',
        branchId: '$4::uuid',
        cause: '$5::text',
        endedByHand: `$3::text = 'membership_ended'`,
      })} RETURNING 1`,
      [scope.businessId, memberIds, cause.reason, cause.branchId ?? null, cause.cause],
    )) as unknown[];
    return rows.length;
  }

  /**
   * The effective prices (`effectivePrice`: cents; null while unknown) of the scope's members
   * `ids`, by id; a member not of this business is absent.
   */
  async effectivePrices(
    scope: BusinessScope,
    ids: string[],
    runner: SqlRunner = this.dataSource,
  ): Promise<Map<string, number | null>> {
    if (ids.length === 0) return new Map();
    const rows = (await runner.query(
      `SELECT r.id, ${effectivePrice('r')} AS price FROM members r
       WHERE r.business_id = $1 AND r.id = ANY($2::uuid[])`,
      [scope.businessId, ids],
    )) as { id: string; price: number | null }[];
    return new Map(rows.map((row) => [row.id, row.price]));
  }

  /**
   * Counts one opening of the join page for link `linkId` of business `businessId` on today's
   * UTC date: one UPSERT of `join_page_visits`, nothing about the visitor. Public (the business
   * is the live link's, read by the caller from the code): no `BusinessScope`.
   */
  async countJoinPageVisit(linkId: string, businessId: string): Promise<void> {
    await this.dataSource.query(
      countVisitsFrom(
        `(VALUES ($2::uuid, $1::uuid, 'direct')) AS input(business_id, link_id, channel)`,
      ),
      [linkId, businessId],
    );
  }
}
