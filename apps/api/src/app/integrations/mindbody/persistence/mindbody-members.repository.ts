import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { emailKey } from '@grove/contracts';
import type { BusinessScope } from '../../../platform/database/business-scope';
import { runTransaction } from '../../../platform/database/transaction';
import { auditActorParams } from '../../../platform/audit/audit.repository';
import { automaticLinksSql } from '../../../referral/links-for-everyone/automatic-links.sql';
import { newReferralCodes } from '../../../referral/referrals/referral-code';
import { errorCode } from '../../../platform/database/database-faults';
import { countingBranch, priceLinesFrom } from '../../../membership/pricing/price.sql';
import {
  FACT_COLUMNS,
  ON_EVENT_KEY,
  keyTime,
  type FactSource,
} from '../../../membership/lifecycle/lifecycle.repository';

/** A managed branch that stopped counting because its membership ended in Mindbody. */
export interface EndedBranch {
  branchId: string;
  branchName: string;
  /** The member it was a branch of. */
  referrerId: string;
}

interface EndedBranchSqlRow {
  id: string;
  name: string;
  referred_by_id: string;
}

const toEndedBranch = (row: EndedBranchSqlRow): EndedBranch => ({
  branchId: row.id,
  branchName: row.name,
  referrerId: row.referred_by_id,
});

/** A Mindbody client to store as a managed member. Money in cents. */
export interface ManagedMemberInput {
  /** `Client.Id` now (the business can change it). */
  clientId: string;
  /** `Client.UniqueId`: the member's key. */
  uniqueId: number;
  name: string;
  /** '' when Mindbody has no email. */
  email: string;
  /** The client's NormalAutoPay in cents, or null when unknown (no autopay contract). */
  autopayCents: number | null;
  referredBy: string | null;
  /** The membership has ended (cancelled/expired): the member stops counting as a branch. */
  ended: boolean;
  /** The membership is suspended: as a branch it stops counting until it resumes (it stays linked). */
  suspended: boolean;
}

/** A managed member's first paid autopay or sale, read from Mindbody. */
export interface FirstPayment {
  clientId: string;
  paidAt: Date;
}

/** A managed member whose Mindbody autopay Grove may have to change. Cents. */
export interface AutopayTarget {
  memberId: string;
  clientId: string;
  /** The member's name, for the sync's preview (issue 25). */
  name: string;
  /** The unchanged membership price (NormalAutoPay before Grove's discounts). */
  membershipPriceCents: number;
  /** What Mindbody bills now, as Grove last saw or wrote it. */
  autopayCents: number;
  /** Branches that count now (`countingBranch`: counting since, neither ended nor suspended). */
  branches: number;
  /** True when the member is itself a (non-cancelled) branch of a managed member. */
  isBranch: boolean;
}

/** How a Mindbody run came about, for its lifecycle facts: the import, or a sync (by hand or a webhook's). */
export type MindbodyFactSource = Extract<FactSource, 'import' | 'mindbody'>;

/** SQL: the ledger lines of the members in CTE `written`, as they are after a Mindbody write (`$1` = business). */
const MANAGED_PRICE_LINES = priceLinesFrom({
  rows: 'written r',
  reason: `'mindbody_sync'`,
  branchId: 'NULL::uuid',
  cause: `'mindbody_sync:' || ${keyTime('now()')}`,
});

/** The email key of a Mindbody client: its email's key, or `mindbody:<id>` when it has none. */
function managedEmailKey(clientId: string, email: string): string {
  return email ? emailKey(email) : `mindbody:${clientId}`;
}

/**
 * Bulk writes of the Mindbody import and sync on `members` and `prospects` (docs/architecture.md#database, docs/architecture.md#mindbody).
 * TENANCY: every method takes a `BusinessScope` first (the session's, the job's, which the session
 * queued, or a verified webhook's) and every statement filters on its business id.
 *
 * Mindbody's `ReferredBy` is a referral-source label (one of the site's referral types), stored
 * and shown, never matched against names: a managed member is a branch only through Grove's own
 * flows (join link, approval, manual, CSV).
 */
@Injectable()
export class MindbodyMembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The database's current time: a bulk write's start, announced as 'members.bulk-added'. */
  async now(): Promise<Date> {
    const [row] = (await this.dataSource.query(`SELECT now() AS now`)) as { now: Date }[];
    return row?.now ?? new Date();
  }

  /**
   * Keeps managed rows on their Mindbody client through an `Id` renumber, in one statement over
   * `members` and `prospects`: a row whose `mindbody_unique_id` is a client's UniqueId takes that
   * client's current Id, and a row stored before UniqueIds were kept (`mindbody_unique_id` null)
   * with the client's Id takes its UniqueId. Run before {@link upsertMembers} on each batch, which
   * then finds every known client under its current Id (so a renumbered client is never a second
   * member). Rows already right are not touched.
   *
   * Staff can edit a client's Id in Mindbody, so an Id can move from one client to another (two
   * clients swapped, or an old Id given to someone else). A row holding an Id that the batch gives
   * to another UniqueId first steps aside under a stand-in Id, `~<its UniqueId>`, until its own
   * client's page renumbers it (the same run: an edited client is modified, so a sync lists it).
   * Only when the renumber meets such an Id (a unique violation) does it run again, after the
   * step aside, in one transaction: the usual batch costs one statement.
   * @returns rows changed (stand-ins not counted)
   */
  async rekeyClients(
    scope: BusinessScope,
    clients: readonly { clientId: string; uniqueId: number }[],
  ): Promise<number> {
    if (clients.length === 0) return 0;
    const params = [
      scope.businessId,
      clients.map((client) => client.clientId),
      clients.map((client) => client.uniqueId),
    ];
    // Two index-driven joins per table (a row known by its UniqueId under another Id; a row from
    // before UniqueIds, known by its Id): an OR of the two would scan the business's members.
    const renumber = async (manager: EntityManager): Promise<number> => {
      const [result] = (await manager.query(
        `WITH input AS (
         SELECT * FROM unnest($2::text[], $3::int[]) AS i(client_id, unique_id)
       ), members_renumbered AS (
         UPDATE members m SET mindbody_client_id = i.client_id
         FROM input i
         WHERE m.business_id = $1 AND m.mindbody_unique_id = i.unique_id
           AND m.mindbody_client_id IS DISTINCT FROM i.client_id
         RETURNING 1
       ), members_keyed AS (
         UPDATE members m SET mindbody_unique_id = i.unique_id
         FROM input i
         WHERE m.business_id = $1 AND m.mindbody_client_id = i.client_id AND m.mindbody_unique_id IS NULL
         RETURNING 1
       ), prospects_renumbered AS (
         UPDATE prospects p SET mindbody_client_id = i.client_id
         FROM input i
         WHERE p.business_id = $1 AND p.mindbody_unique_id = i.unique_id
           AND p.mindbody_client_id IS DISTINCT FROM i.client_id
         RETURNING 1
       ), prospects_keyed AS (
         UPDATE prospects p SET mindbody_unique_id = i.unique_id
         FROM input i
         WHERE p.business_id = $1 AND p.mindbody_client_id = i.client_id AND p.mindbody_unique_id IS NULL
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM members_renumbered)::int + (SELECT count(*) FROM members_keyed)::int
         + (SELECT count(*) FROM prospects_renumbered)::int + (SELECT count(*) FROM prospects_keyed)::int AS n`,
        params,
      )) as { n: number }[];
      return result?.n ?? 0;
    };
    try {
      return await renumber(this.dataSource.manager);
    } catch (error) {
      // 23505: an Id of this batch is still held by another client's row (staff moved Ids).
      if (errorCode(error) !== '23505') throw error;
    }
    return this.dataSource.transaction(async (manager) => {
      // Rows holding an Id the batch gives to another client step aside first.
      await manager.query(
        `WITH input AS (
           SELECT * FROM unnest($2::text[], $3::int[]) AS i(client_id, unique_id)
         ), members_aside AS (
           UPDATE members m SET mindbody_client_id = '~' || m.mindbody_unique_id
           FROM input i
           WHERE m.business_id = $1 AND m.mindbody_client_id = i.client_id
             AND m.mindbody_unique_id <> i.unique_id
           RETURNING 1
         )
         UPDATE prospects p SET mindbody_client_id = '~' || p.mindbody_unique_id
         FROM input i
         WHERE p.business_id = $1 AND p.mindbody_client_id = i.client_id
           AND p.mindbody_unique_id <> i.unique_id`,
        params,
      );
      return renumber(manager);
    });
  }

  /**
   * Writes one page of clients as managed members in ONE statement (one round trip, one commit),
   * idempotent by Mindbody client id (`INSERT … ON CONFLICT (business_id, mindbody_client_id) DO UPDATE`):
   * - a hand-added member with the same email key is adopted (it becomes managed, nothing lost);
   * - a client whose email key belongs to another client's member is skipped;
   * - a suspended membership sets `mindbody_suspended_at` (kept while it stays suspended), a running
   *   one clears it: a suspended branch stays linked to its referrer but stops counting;
   * - the membership price is the client's autopay amount; when Mindbody's autopay still equals the
   *   amount Grove wrote, the stored (undiscounted) price stays;
   * - `ReferredBy` is stored as the client's referral source (`mindbody_referred_by`, a label such
   *   as 'Friend' or 'Instagram') and never links anyone: branches come from Grove's own flows;
   * - a member whose Mindbody data is unchanged is not rewritten (`WHERE … IS DISTINCT FROM …`);
   * - managed prospects that have become members are removed;
   * - when the business's automatic-link setting is on, each new member gets its referral link, with
   *   its `link_created` fact and 'link.created' audit entry (`automaticLinksSql`): one statement
   *   per page instead of a pass over the new members after the import (a third of it);
   * - with `progress`, the run's progress (`mindbody_integrations.progress_done/total`, stage > 1)
   *   is written by the same statement, so it counts exactly the committed pages;
   * - the same statement records the lifecycle facts of what it changed (docs/architecture.md#lifecycle-facts):
   *   member_added (`source`) for a new member (branch_added stays for rows that have a referrer),
   *   member_ended (key with its `mindbody_cancelled_at`, so a re-import writes nothing) for an
   *   ended membership, and a ledger line for each member whose shown price moved
   *   ('mindbody_sync'; 'member_added' first, 'membership_ended' at 0).
   *
   * The email-key check reads the batch's keys once (`taken`, materialized) and anti-joins them:
   * as a correlated subquery per row, a business filling up during its import (statistics that
   * still count it empty) was probed through `members_business_referred_by_idx`, each probe
   * walking every member stored so far (quadratic: 0.76 ms a row at 8,000 members). Why each
   * part, and what it saved: docs/decisions/import-write-floor.md.
   * @param progress clients processed so far and the listing's total, to record with the page
   * @param pricesRead each client's NormalAutoPay was read from its contracts (sync): the members
   *   count as priced (`mindbody_priced_at`), also those without an autopay contract; otherwise a
   *   new member's price is not known until the follow-up 'prices' job ({@link setPrices})
   * @param source 'import' (stage 2) or 'mindbody' (a sync), for the facts
   * @returns members inserted or changed
   */
  async upsertMembers(
    scope: BusinessScope,
    page: ManagedMemberInput[],
    progress?: { done: number; total: number },
    pricesRead = false,
    source: MindbodyFactSource = 'import',
  ): Promise<number> {
    const seen = new Set<string>();
    const rows = page
      .map((client) => ({ ...client, key: managedEmailKey(client.clientId, client.email) }))
      .filter((client) => !seen.has(client.key) && seen.add(client.key));
    if (rows.length === 0 && !progress) return 0;
    const [result] = (await this.dataSource.query(
      `WITH input AS (
         SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::bool[], $13::bool[], $14::int[])
           AS i(client_id, name, email, email_key, autopay_cents, referred_by, ended, suspended, unique_id)
       ), taken AS MATERIALIZED (
         -- The batch's email keys already stored, read once per statement (one index probe per key
         -- with fresh statistics; at worst one walk of the business's members, see the docstring).
         SELECT o.email_key, o.mindbody_client_id FROM members o
         WHERE o.business_id = $1 AND o.email_key = ANY($5::text[])
       ), adopted AS (
         UPDATE members m SET mindbody_client_id = i.client_id, mindbody_unique_id = i.unique_id, name = i.name, email = i.email,
           membership_price_cents = COALESCE(i.autopay_cents, m.membership_price_cents),
           mindbody_autopay_cents = i.autopay_cents, mindbody_referred_by = i.referred_by,
           mindbody_cancelled_at = CASE WHEN i.ended THEN now() END,
           mindbody_suspended_at = CASE WHEN i.suspended AND NOT i.ended THEN now() END,
           mindbody_priced_at = CASE WHEN $11 THEN now() END
         FROM input i
         WHERE m.business_id = $1 AND m.email_key = i.email_key AND m.mindbody_client_id IS NULL
           AND NOT EXISTS (SELECT 1 FROM members x WHERE x.business_id = $1 AND x.mindbody_client_id = i.client_id LIMIT 1)
         RETURNING m.*, false AS created
       ), upserted AS (
         INSERT INTO members AS m (business_id, name, email, email_key, membership_price_cents, discount_cents,
           mindbody_client_id, mindbody_unique_id, mindbody_autopay_cents, mindbody_referred_by, mindbody_cancelled_at,
           mindbody_suspended_at, mindbody_priced_at, referred_by_id)
         SELECT $1, i.name, i.email, i.email_key, COALESCE(i.autopay_cents, 0), 0, i.client_id, i.unique_id, i.autopay_cents, i.referred_by,
           CASE WHEN i.ended THEN now() END, CASE WHEN i.suspended AND NOT i.ended THEN now() END,
           CASE WHEN $11 THEN now() END,
           -- ReferredBy is a referral-source label, never a person: a new member is nobody's branch.
           NULL::uuid
         FROM input i
         WHERE NOT EXISTS (SELECT 1 FROM adopted a WHERE a.mindbody_client_id = i.client_id)
           AND NOT EXISTS (SELECT 1 FROM taken t
                           WHERE t.email_key = i.email_key AND t.mindbody_client_id <> i.client_id)
         ON CONFLICT (business_id, mindbody_client_id) DO UPDATE SET
           name = EXCLUDED.name, email = EXCLUDED.email, email_key = EXCLUDED.email_key,
           mindbody_referred_by = EXCLUDED.mindbody_referred_by,
           mindbody_cancelled_at = CASE WHEN EXCLUDED.mindbody_cancelled_at IS NULL THEN NULL
                                        ELSE COALESCE(m.mindbody_cancelled_at, EXCLUDED.mindbody_cancelled_at) END,
           mindbody_suspended_at = CASE WHEN EXCLUDED.mindbody_suspended_at IS NULL THEN NULL
                                        ELSE COALESCE(m.mindbody_suspended_at, EXCLUDED.mindbody_suspended_at) END,
           membership_price_cents = CASE
             WHEN EXCLUDED.mindbody_autopay_cents IS NULL OR EXCLUDED.mindbody_autopay_cents = m.mindbody_autopay_cents
               THEN m.membership_price_cents
             ELSE EXCLUDED.mindbody_autopay_cents END,
           mindbody_autopay_cents = COALESCE(EXCLUDED.mindbody_autopay_cents, m.mindbody_autopay_cents),
           mindbody_priced_at = COALESCE(m.mindbody_priced_at, EXCLUDED.mindbody_priced_at)
         WHERE (m.name, m.email, m.email_key, m.mindbody_referred_by, m.mindbody_cancelled_at IS NULL,
                m.mindbody_suspended_at IS NULL, COALESCE(EXCLUDED.mindbody_autopay_cents, m.mindbody_autopay_cents),
                m.mindbody_priced_at IS NULL AND EXCLUDED.mindbody_priced_at IS NOT NULL)
           IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.email, EXCLUDED.email_key, EXCLUDED.mindbody_referred_by,
                EXCLUDED.mindbody_cancelled_at IS NULL, EXCLUDED.mindbody_suspended_at IS NULL,
                m.mindbody_autopay_cents, false)
         RETURNING m.*, (m.xmax = 0) AS created
       ), written AS (
         SELECT * FROM adopted UNION ALL SELECT * FROM upserted
       ), added AS (
         -- The new members and their codes, for the automatic links (an adopted member is not new).
         SELECT w.id, w.name, c.code FROM written w
         JOIN unnest($2::text[], $15::text[]) AS c(client_id, code) ON c.client_id = w.mindbody_client_id
         WHERE w.created
       )${automaticLinksSql('added', { business: '$1', actor: '$16', user: '$17::uuid' })}, facts AS (
         INSERT INTO lifecycle_facts (${FACT_COLUMNS}, occurred_at)
         SELECT $1, f.kind, w.id, f.referrer_id, NULL, NULL, $12, f.event_key, f.occurred_at
         FROM written w CROSS JOIN LATERAL (VALUES
           ('member_added', NULL::uuid, 'member_added:' || w.id, w.created_at, w.created),
           ('branch_added', w.referred_by_id, 'branch_added:' || w.id, w.created_at, w.created AND w.referred_by_id IS NOT NULL),
           ('member_ended', NULL::uuid, 'member_ended:' || w.id || ':' || ${keyTime('w.mindbody_cancelled_at')},
             w.mindbody_cancelled_at, w.mindbody_cancelled_at IS NOT NULL)
         ) AS f(kind, referrer_id, event_key, occurred_at, wanted)
         WHERE f.wanted
         ${ON_EVENT_KEY}
       ), prices AS (
         ${MANAGED_PRICE_LINES}
       ), became_members AS (
         DELETE FROM prospects p USING input i
         WHERE p.business_id = $1 AND p.mindbody_client_id = i.client_id
         RETURNING 1
       ), progress AS (
         UPDATE mindbody_integrations SET progress_done = $9, progress_total = $10, updated_at = now()
         WHERE business_id = $1 AND stage > 1 AND $9::int IS NOT NULL
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM adopted)::int + (SELECT count(*) FROM upserted)::int AS n,
              (SELECT count(*) FROM became_members)::int AS gone,
              (SELECT count(*) FROM progress)::int AS progressed`,
      [
        scope.businessId,
        rows.map((row) => row.clientId),
        rows.map((row) => row.name),
        rows.map((row) => row.email),
        rows.map((row) => row.key),
        rows.map((row) => row.autopayCents),
        rows.map((row) => row.referredBy),
        rows.map((row) => row.ended),
        progress?.done ?? null,
        progress?.total ?? null,
        pricesRead,
        source,
        rows.map((row) => row.suspended),
        rows.map((row) => row.uniqueId),
        newReferralCodes(rows.length),
        ...auditActorParams(scope),
      ],
    )) as { n: number }[];
    return result?.n ?? 0;
  }

  /**
   * Detaches every managed member whose Mindbody membership has ended from its managed referrer
   * (one statement): an ended membership stops being a branch (docs/product.md#branch-qualification).
   * Nothing else is linked or unlinked here — `ReferredBy` names no person, and a branch made
   * through Grove's own flows stays. Each change is recorded by the same statement as
   * branch_removed, key `branch_removed:<member id>:<referrer id>:<time>`
   * (docs/architecture.md#lifecycle-facts); a re-run finds nothing to detach and records nothing.
   * @param source 'import' or 'mindbody' (a sync), for the facts
   * @returns the branches detached (for their referrers' ledger lines and emails)
   */
  async detachEndedBranches(
    scope: BusinessScope,
    source: MindbodyFactSource = 'import',
    manager?: EntityManager,
  ): Promise<EndedBranch[]> {
    const rows: EndedBranchSqlRow[] = await (manager ?? this.dataSource).query(
      `WITH ended AS MATERIALIZED (
         -- The business's ended managed branches, each referrer read by its primary key (a scalar
         -- subquery is never flattened into a join): planned as a join on stale statistics (a
         -- business filling up during its import counts as empty), each ended member walked every
         -- member of the business looking for its referrer, 18 s at 8,970 members
         -- (docs/decisions/import-write-floor.md, session 25).
         SELECT m.id, m.referred_by_id FROM members m
         WHERE m.business_id = $1 AND m.referred_by_id IS NOT NULL
           AND m.mindbody_client_id IS NOT NULL AND m.mindbody_cancelled_at IS NOT NULL
           AND (SELECT r.business_id = $1 AND r.mindbody_client_id IS NOT NULL
                FROM members r WHERE r.id = m.referred_by_id)
       ), changed AS (
         -- By primary key alone: \`ended\` holds only the business's members.
         UPDATE members m SET referred_by_id = NULL
         FROM ended e
         WHERE m.id = e.id AND m.referred_by_id = e.referred_by_id
         RETURNING m.id, m.name, e.referred_by_id AS old_referrer_id
       ), facts AS (
         INSERT INTO lifecycle_facts (${FACT_COLUMNS})
         SELECT $1, 'branch_removed', c.id, c.old_referrer_id, NULL, NULL, $2,
           'branch_removed:' || c.id || ':' || c.old_referrer_id || ':' || ${keyTime('now()')}
         FROM changed c
         ${ON_EVENT_KEY}
         RETURNING 1
       )
       SELECT c.id, c.name, c.old_referrer_id AS referred_by_id FROM changed c`,
      [scope.businessId, source],
    );
    return rows.map(toEndedBranch);
  }

  /** Runs `work` in one transaction (the sync's detach, ledger lines and lapse emails). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Marks a managed member's membership cancelled (webhook): it stops counting as a branch. A
   * membership already ended keeps the date it ended (a second cancellation is no new event).
   * The same statement records member_ended (key `member_ended:<member id>:<cancelled at>`, as the
   * import does, so the sync that follows writes nothing new), branch_removed when it was a
   * branch, and its ledger's 'membership_ended' line (docs/architecture.md#lifecycle-facts).
   * @returns `ended`: the branch that stopped counting (with its referrer), or null when it was
   *   none; `member`: the member whose membership this ended (id and name), null when the client is
   *   no member or its membership had already ended
   */
  async markCancelled(
    scope: BusinessScope,
    manager: EntityManager,
    clientId: string,
  ): Promise<{ ended: EndedBranch | null; member: { id: string; name: string } | null }> {
    const rows: (Omit<EndedBranchSqlRow, 'referred_by_id'> & {
      referred_by_id: string | null;
      newly: boolean;
    })[] = await manager.query(
      `WITH before AS (
         SELECT id, referred_by_id, mindbody_cancelled_at FROM members
         WHERE business_id = $1 AND mindbody_client_id = $2 FOR UPDATE
       ), written AS (
         UPDATE members m SET mindbody_cancelled_at = COALESCE(m.mindbody_cancelled_at, now()), referred_by_id = NULL
         FROM before b WHERE m.id = b.id
         RETURNING m.*, b.referred_by_id AS old_referrer_id, b.mindbody_cancelled_at AS old_cancelled_at
       ), facts AS (
         INSERT INTO lifecycle_facts (${FACT_COLUMNS}, occurred_at)
         SELECT $1, f.kind, w.id, f.referrer_id, NULL, NULL, 'mindbody', f.event_key, f.occurred_at
         FROM written w CROSS JOIN LATERAL (VALUES
           ('member_ended', NULL::uuid, 'member_ended:' || w.id || ':' || ${keyTime('w.mindbody_cancelled_at')}, w.mindbody_cancelled_at),
           ('branch_removed', w.old_referrer_id,
             'branch_removed:' || w.id || ':' || w.old_referrer_id || ':' || ${keyTime('now()')}, now())
         ) AS f(kind, referrer_id, event_key, occurred_at)
         WHERE f.kind = 'member_ended' OR f.referrer_id IS NOT NULL
         ${ON_EVENT_KEY}
       ), lines AS (
         ${MANAGED_PRICE_LINES}
         RETURNING 1
       )
       SELECT w.id, w.name, w.old_referrer_id AS referred_by_id, w.old_cancelled_at IS NULL AS newly
       FROM written w`,
      [scope.businessId, clientId],
    );
    const row = rows[0];
    return {
      ended: row?.referred_by_id
        ? toEndedBranch({ ...row, referred_by_id: row.referred_by_id })
        : null,
      member: row?.newly ? { id: row.id, name: row.name } : null,
    };
  }

  /**
   * Mindbody client ids of the managed branches whose first payment Grove must still learn, when
   * the business's rule is 'first_payment' (docs/product.md#branch-qualification): pending
   * (`branch_counting_since` null), no first payment known, membership neither ended nor
   * suspended. Empty for a business on another rule, so its syncs ask Mindbody nothing more.
   * Served by the partial index of pending branches (`members_pending_branches_idx`).
   */
  async firstPaymentCandidates(scope: BusinessScope): Promise<string[]> {
    const rows: { mindbody_client_id: string }[] = await this.dataSource.query(
      `SELECT m.mindbody_client_id FROM members m
       WHERE m.business_id = $1 AND m.referred_by_id IS NOT NULL AND m.branch_counting_since IS NULL
         AND m.mindbody_client_id IS NOT NULL AND m.mindbody_first_paid_at IS NULL
         AND m.mindbody_cancelled_at IS NULL AND m.mindbody_suspended_at IS NULL
         AND EXISTS (SELECT 1 FROM businesses b WHERE b.id = $1 AND b.branch_qualification = 'first_payment')
       ORDER BY m.mindbody_client_id`,
      [scope.businessId],
    );
    return rows.map((row) => row.mindbody_client_id);
  }

  /**
   * Stores each client's first paid autopay or sale (`mindbody_first_paid_at`) in one UPDATE over
   * unnest arrays; an earlier payment replaces a later one, a later one changes nothing.
   * @param manager the transaction to write in (a webhook's), else a statement of its own
   * @returns members changed
   */
  async setFirstPaid(
    scope: BusinessScope,
    payments: readonly FirstPayment[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    if (payments.length === 0) return 0;
    const rows: { id: string }[] = await manager.query(
      `UPDATE members m SET mindbody_first_paid_at = i.paid_at
       FROM unnest($2::text[], $3::timestamptz[]) AS i(client_id, paid_at)
       WHERE m.business_id = $1 AND m.mindbody_client_id = i.client_id
         AND (m.mindbody_first_paid_at IS NULL OR m.mindbody_first_paid_at > i.paid_at)
       RETURNING m.id`,
      [
        scope.businessId,
        payments.map((payment) => payment.clientId),
        payments.map((payment) => payment.paidAt.toISOString()),
      ],
    );
    return rows.length;
  }

  /**
   * Managed members with a known autopay whose membership runs (neither ended nor suspended: a
   * suspended contract's autopay cannot be written), with their counting branches
   * (`countingBranch`), for the sync's autopay writes.
   */
  async autopayTargets(scope: BusinessScope): Promise<AutopayTarget[]> {
    const rows: {
      id: string;
      mindbody_client_id: string;
      name: string;
      membership_price_cents: number;
      mindbody_autopay_cents: number;
      branches: number;
      is_branch: boolean;
    }[] = await this.dataSource.query(
      `SELECT m.id, m.mindbody_client_id, m.name, m.membership_price_cents, m.mindbody_autopay_cents,
         (SELECT count(*) FROM members b WHERE b.business_id = $1 AND b.referred_by_id = m.id
            AND ${countingBranch('b')})::int AS branches,
         (m.referred_by_id IS NOT NULL) AS is_branch
       FROM members m
       WHERE m.business_id = $1 AND m.mindbody_client_id IS NOT NULL AND m.mindbody_autopay_cents IS NOT NULL
         AND m.mindbody_cancelled_at IS NULL AND m.mindbody_suspended_at IS NULL`,
      [scope.businessId],
    );
    return rows.map((row) => ({
      memberId: row.id,
      clientId: row.mindbody_client_id,
      name: row.name,
      membershipPriceCents: row.membership_price_cents,
      autopayCents: row.mindbody_autopay_cents,
      branches: row.branches,
      isBranch: row.is_branch,
    }));
  }

  /**
   * How many of the business's running managed members the next sync must read the contracts of
   * before it knows their bill (never priced, or marked by a contract event: as
   * {@link managedClientIds} with `onlyUnpriced`), for the sync's preview (issue 25).
   */
  async countUnreadContracts(scope: BusinessScope): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM members
       WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NULL
         AND (mindbody_priced_at IS NULL OR mindbody_contracts_stale)`,
      [scope.businessId],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /**
   * How many branches of the business's managed members wait for their own Mindbody client (a
   * friend approved through Grove, not matched by email yet: no Mindbody client, not counting),
   * for the sync's preview (issue 25): a sync that finds their client changes their referrer's
   * bill and theirs.
   */
  async countWaitingFriends(scope: BusinessScope): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM members b
       WHERE b.business_id = $1 AND b.referred_by_id IS NOT NULL AND b.mindbody_client_id IS NULL
         AND b.branch_counting_since IS NULL
         AND EXISTS (SELECT 1 FROM members r WHERE r.business_id = $1 AND r.id = b.referred_by_id
                       AND r.mindbody_client_id IS NOT NULL)`,
      [scope.businessId],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /**
   * Mindbody client ids of the business's managed members whose membership runs, in client id
   * order: all, or with `onlyUnpriced` those whose contracts Grove must read (again): never priced
   * (`mindbody_priced_at IS NULL`), or marked by a contract event since their last read
   * (`mindbody_contracts_stale`, {@link markContractsStale}). A member without an autopay contract
   * is not read again on every sync (issue 22: Mindbody bills the calls): a new contract reaches
   * Grove with the client's change, or with its contract event.
   */
  async managedClientIds(scope: BusinessScope, onlyUnpriced: boolean): Promise<string[]> {
    const rows: { mindbody_client_id: string }[] = await this.dataSource.query(
      `SELECT mindbody_client_id FROM members
       WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NULL
         AND ($2 = false OR mindbody_priced_at IS NULL OR mindbody_contracts_stale)
       ORDER BY mindbody_client_id`,
      [scope.businessId, onlyUnpriced],
    );
    return rows.map((row) => row.mindbody_client_id);
  }

  /**
   * Marks a client's contracts to be read by the next sync (a Mindbody contract event arrived for
   * it), inside the webhook's transaction.
   * @returns whether a member of the business has that client
   */
  async markContractsStale(
    scope: BusinessScope,
    manager: EntityManager,
    clientId: string,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `UPDATE members SET mindbody_contracts_stale = true
       WHERE business_id = $1 AND mindbody_client_id = $2 RETURNING 1`,
      [scope.businessId, clientId],
    );
    return rows.length > 0;
  }

  /**
   * Stores each client's NormalAutoPay (cents) in ONE statement: it becomes the membership price,
   * except when Mindbody still bills what Grove wrote (the discounted amount), which keeps the
   * undiscounted price. Every client passed counts as priced from now on (`mindbody_priced_at`):
   * one without an autopay contract (null) keeps its price. Unchanged rows are not rewritten. The
   * same statement writes a ledger line for each member whose shown price moved ('mindbody_sync';
   * 'member_added' for a member's first known price) (docs/architecture.md#lifecycle-facts).
   * @returns members whose price, autopay or priced state changed
   */
  async setPrices(
    scope: BusinessScope,
    prices: { clientId: string; autopayCents: number | null }[],
  ): Promise<number> {
    if (prices.length === 0) return 0;
    const [row] = (await this.dataSource.query(
      `WITH changed AS (
         UPDATE members m SET
           membership_price_cents = CASE
             WHEN i.autopay_cents IS NULL OR m.mindbody_autopay_cents = i.autopay_cents THEN m.membership_price_cents
             ELSE i.autopay_cents END,
           mindbody_autopay_cents = COALESCE(i.autopay_cents, m.mindbody_autopay_cents),
           mindbody_priced_at = COALESCE(m.mindbody_priced_at, now())
         FROM unnest($2::text[], $3::int[]) AS i(client_id, autopay_cents)
         WHERE m.business_id = $1 AND m.mindbody_client_id = i.client_id
           AND (m.mindbody_priced_at IS NULL OR COALESCE(i.autopay_cents, m.mindbody_autopay_cents) IS DISTINCT FROM m.mindbody_autopay_cents)
         RETURNING m.*
       ), written AS (
         SELECT * FROM changed
       ), prices AS (
         ${MANAGED_PRICE_LINES}
       )
       SELECT count(*)::int AS n FROM changed`,
      [
        scope.businessId,
        prices.map((price) => price.clientId),
        prices.map((price) => price.autopayCents),
      ],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /**
   * Stores what Mindbody will charge each client next (`mindbody_next_charge_cents` /
   * `mindbody_next_charge_at`: the next `UpcomingAutopayEvents` date's `ChargeAmount`s), in one
   * UPDATE over unnest arrays; a client without an upcoming autopay gets nulls. Its contracts have
   * just been read, so a contract event's mark (`mindbody_contracts_stale`) is cleared. Unchanged
   * rows are not rewritten.
   */
  async setNextCharges(
    scope: BusinessScope,
    charges: readonly { clientId: string; chargeCents: number | null; chargeAt: string | null }[],
  ): Promise<void> {
    if (charges.length === 0) return;
    await this.dataSource.query(
      `UPDATE members m SET mindbody_next_charge_cents = i.charge_cents, mindbody_next_charge_at = i.charge_at,
         mindbody_contracts_stale = false
       FROM unnest($2::text[], $3::int[], $4::timestamptz[]) AS i(client_id, charge_cents, charge_at)
       WHERE m.business_id = $1 AND m.mindbody_client_id = i.client_id
         AND ((m.mindbody_next_charge_cents, m.mindbody_next_charge_at) IS DISTINCT FROM (i.charge_cents, i.charge_at)
              OR m.mindbody_contracts_stale)`,
      [
        scope.businessId,
        charges.map((charge) => charge.clientId),
        charges.map((charge) => charge.chargeCents),
        charges.map((charge) => charge.chargeAt),
      ],
    );
  }

  /**
   * Records the autopay amount Mindbody now bills each member (after a write or a fresh read), in
   * one UPDATE over unnest arrays (like {@link setPrices}); with `manager`, in its transaction.
   */
  async setAutopay(
    scope: BusinessScope,
    autopays: { memberId: string; autopayCents: number }[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    if (autopays.length === 0) return;
    await manager.query(
      `UPDATE members m SET mindbody_autopay_cents = i.autopay_cents
       FROM unnest($2::uuid[], $3::int[]) AS i(id, autopay_cents)
       WHERE m.business_id = $1 AND m.id = i.id`,
      [
        scope.businessId,
        autopays.map((autopay) => autopay.memberId),
        autopays.map((autopay) => autopay.autopayCents),
      ],
    );
  }

  /**
   * Writes a ledger line for every managed member of the business whose effective price (the
   * autopay Grove bills, `effectivePrice`) differs from its ledger's last line, in one statement:
   * what a run moved without a line of its own ('mindbody_sync': a branch linked to or detached
   * from its referrer, discounts saved since the last run; the bill changes when the run writes
   * it). Lines already written with their own reason (a refresh's 'branch_counting' /
   * 'branch_lapsed', an ended branch's 'branch_removed') are not written again. Called by the
   * import and the sync under the business's Mindbody lock.
   * @returns lines written
   */
  async recordManagedPrices(scope: BusinessScope): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH written AS (SELECT * FROM members WHERE business_id = $1 AND mindbody_client_id IS NOT NULL)
       ${MANAGED_PRICE_LINES}
       RETURNING 1`,
      [scope.businessId],
    );
    return rows.length;
  }

  /**
   * The running managed members whose Mindbody autopay Grove has overridden: what Grove last wrote
   * (`mindbody_autopay_cents`) differs from their own amount (`membership_price_cents`, the
   * contract's amount before Grove's first override), for 'Remove integration' to put back.
   */
  async overriddenAutopays(scope: BusinessScope): Promise<
    {
      memberId: string;
      name: string;
      clientId: string;
      ownAmountCents: number;
      /** What Grove last wrote (what Mindbody bills now). */
      currentCents: number;
    }[]
  > {
    const rows: {
      id: string;
      name: string;
      mindbody_client_id: string;
      membership_price_cents: number;
      mindbody_autopay_cents: number;
    }[] = await this.dataSource.query(
      `SELECT id, name, mindbody_client_id, membership_price_cents, mindbody_autopay_cents FROM members
         WHERE business_id = $1 AND mindbody_client_id IS NOT NULL AND mindbody_cancelled_at IS NULL
           AND mindbody_autopay_cents IS NOT NULL AND mindbody_autopay_cents <> membership_price_cents
         ORDER BY name`,
      [scope.businessId],
    );
    return rows.map((row) => ({
      memberId: row.id,
      name: row.name,
      clientId: row.mindbody_client_id,
      ownAmountCents: row.membership_price_cents,
      currentCents: row.mindbody_autopay_cents,
    }));
  }

  /**
   * 'Remove integration': the business's imported members and prospects stay as ordinary
   * (hand-managed) rows; their Mindbody columns are cleared (inside `manager`'s transaction). The
   * same statement writes a ledger line ('mindbody_sync') for each whose shown price moves: from
   * now on it is the hand rule's max(0, price − discount × branches), and an ended or suspended
   * membership runs again (docs/architecture.md#lifecycle-facts).
   */
  async releaseManaged(scope: BusinessScope, manager: EntityManager): Promise<void> {
    await manager.query(
      `WITH written AS (
         UPDATE members SET mindbody_client_id = NULL, mindbody_unique_id = NULL, mindbody_referred_by = NULL, mindbody_autopay_cents = NULL,
           mindbody_next_charge_cents = NULL, mindbody_next_charge_at = NULL,
           mindbody_cancelled_at = NULL, mindbody_suspended_at = NULL, mindbody_priced_at = NULL
         WHERE business_id = $1 AND mindbody_client_id IS NOT NULL
         RETURNING *
       )
       ${MANAGED_PRICE_LINES}`,
      [scope.businessId],
    );
    await manager.query(
      `UPDATE prospects SET source = NULL, mindbody_client_id = NULL, mindbody_unique_id = NULL WHERE business_id = $1 AND source = 'Mindbody'`,
      [scope.businessId],
    );
    // A friend still waiting to be added to Mindbody (issue 33 item 4) no longer will be.
    await manager.query(
      `UPDATE members SET mindbody_add_state = NULL, mindbody_add_error = NULL
       WHERE business_id = $1 AND mindbody_add_state IS NOT NULL`,
      [scope.businessId],
    );
  }

  /**
   * 'Add to Mindbody' (issue 33 item 4): marks the member 'pending' (its error cleared) in
   * `manager`'s transaction, when it has no Mindbody client yet and, with `onlyFailed` (the
   * owner's 'Try again'), when its last attempt failed.
   * @returns the member's name and email when marked, null otherwise (unknown in this business,
   *   already a client, or — with `onlyFailed` — not failed)
   */
  async requestClient(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
    onlyFailed: boolean,
  ): Promise<{ name: string; email: string } | null> {
    const [rows] = (await manager.query(
      `UPDATE members SET mindbody_add_state = 'pending', mindbody_add_error = NULL
       WHERE business_id = $1 AND id = $2 AND mindbody_client_id IS NULL
         AND (NOT $3 OR mindbody_add_state = 'failed')
       RETURNING name, email`,
      [scope.businessId, memberId, onlyFailed],
    )) as [{ name: string; email: string }[], number];
    return rows[0] ?? null;
  }

  /**
   * The member a 'mindbody.add-client' job works on: name, email, Mindbody client (null: none
   * yet) and add state; null when the business has no such member (removed meanwhile).
   */
  async clientRequest(
    scope: BusinessScope,
    memberId: string,
  ): Promise<{
    name: string;
    email: string;
    clientId: string | null;
    state: 'pending' | 'failed' | null;
  } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT name, email, mindbody_client_id AS "clientId", mindbody_add_state AS state
       FROM members WHERE business_id = $1 AND id = $2`,
      [scope.businessId, memberId],
    )) as {
      name: string;
      email: string;
      clientId: string | null;
      state: 'pending' | 'failed' | null;
    }[];
    return row ?? null;
  }

  /**
   * Links the member to its Mindbody client (`Id` and `UniqueId`, as the import keeps them) in
   * one transaction with `done` (the audit entry): from then on the sync and webhooks match it as any imported member
   * (its contracts are read at the next sync: `mindbody_priced_at` stays null). Its add state is
   * cleared. The same statement writes its ledger line when its shown price moves
   * (`MANAGED_PRICE_LINES`). Nothing happens when it already has another client, or when another
   * member of the business holds that client (a member a sync already matched to this very client
   * is linked again, harmlessly).
   * @returns true when linked (`done` then ran), false otherwise
   */
  async linkClient(
    scope: BusinessScope,
    memberId: string,
    client: { id: string; uniqueId: number; referredBy: string | null },
    done: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return runTransaction(this.dataSource, async (manager) => {
      const [row] = (await manager.query(
        `WITH written AS (
         UPDATE members m SET mindbody_client_id = $3, mindbody_unique_id = $4, mindbody_referred_by = $5,
           mindbody_add_state = NULL, mindbody_add_error = NULL
         WHERE m.business_id = $1 AND m.id = $2 AND (m.mindbody_client_id IS NULL OR m.mindbody_client_id = $3)
           AND NOT EXISTS (SELECT 1 FROM members x WHERE x.business_id = $1 AND x.mindbody_client_id = $3 AND x.id <> $2)
         RETURNING m.*
       ), lines AS (
         ${MANAGED_PRICE_LINES}
       )
       SELECT count(*)::int AS n FROM written`,
        [scope.businessId, memberId, client.id, client.uniqueId, client.referredBy],
      )) as { n: number }[];
      if ((row?.n ?? 0) === 0) return false;
      await done(manager);
      return true;
    });
  }

  /**
   * Records that adding the member's Mindbody client failed, with why (`message`, at most 500
   * characters, shown to the owner), while it is still 'pending'.
   */
  async failClient(scope: BusinessScope, memberId: string, message: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE members SET mindbody_add_state = 'failed', mindbody_add_error = left($3, 500)
       WHERE business_id = $1 AND id = $2 AND mindbody_add_state = 'pending'`,
      [scope.businessId, memberId, message],
    );
  }
}
