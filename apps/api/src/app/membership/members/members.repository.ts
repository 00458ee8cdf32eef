import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { runTransaction } from '../../platform/database/transaction';
import type { BusinessScope } from '../../platform/database/business-scope';
import {
  MEMBER_STATUSES,
  type BranchDetail,
  type MemberLinkFilter,
  type MemberManagedFilter,
  type MemberSortKey,
  type MemberStatus,
  type ReferralToMatch,
  type RewardPriceRule,
} from '@grove/contracts';
import {
  PreparedReads,
  preparedStatement,
  type PreparedStatement,
} from '../../platform/database/prepared-query';
import { pageOfRows } from '../../platform/database/page-rows';
import { likeAnyColumn, likeSubstring, lowerSearchText } from '../../platform/database/text-filter';
import {
  branchStateColumns,
  countingBranch,
  rewardRuleJson,
  stripeBilled,
  rowPrice,
} from '../pricing/price.sql';
import {
  memberStatus,
  memberStatusSql,
  type MemberSummary,
  type MindbodyPriceState,
  type StripeBilling,
} from './member-row';
import { MemberEntity } from './member.entity';
import { MemberSearchIndexes } from './member-search-indexes.repository';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';

/** Columns of a member to insert; money in cents. */
export interface NewMember {
  name: string;
  email: string;
  emailKey: string;
  membershipPriceCents: number;
  discountCents: number;
  referredById: string | null;
  /** Who referred them as typed at the desk, when it matched no member (issue 33 item 4). */
  referredByNote?: string | null;
}

/** Columns of a member that may change by hand. */
export type MemberChanges = Partial<
  Pick<NewMember, 'name' | 'email' | 'emailKey' | 'membershipPriceCents' | 'discountCents'>
>;

/** Options of one page of the members list. */
export interface MemberPageQuery {
  /** 0-based row offset */
  offset: number;
  limit: number;
  sort: MemberSortKey;
  order: 'asc' | 'desc';
  /** case-insensitive substring of name or email */
  search?: string;
  /** Filters that narrow the list and its total (`ListMembersQuery`). */
  filters?: MemberFilters;
}

/** The members list's filters (docs/product.md#branches); each one set narrows the list. */
export interface MemberFilters {
  status?: MemberStatus;
  managed?: MemberManagedFilter;
  hasLink?: MemberLinkFilter;
  /** A member id: only its branches. */
  referredBy?: string;
}

/** A member row as the summary statements read it (`SUMMARY_COLUMNS`, `toSummary`). */
export interface SummarySqlRow {
  id: string;
  name: string;
  email: string;
  membership_price_cents: number;
  discount_cents: number;
  referred_by_id: string | null;
  mindbody_client_id: string | null;
  branch_count?: number;
  integration_discount_cents?: number | null;
  /** The name of the member it was referred by (page statements only). */
  referrer_name?: string | null;
  price_state: MindbodyPriceState | null;
  /** Mindbody's `ReferredBy` of a managed member (a referral-source label), or null. */
  referral_source: string | null;
  /** What Mindbody will charge next (cents) and when, null when not read. */
  next_charge_cents: number | null;
  next_charge_at: Date | null;
  /** The business's reward and cap (`rewardRuleJson`). */
  reward_rule?: RewardPriceRule | null;
  /**
   * Billed on the business's Stripe (`SUMMARY_JOINS`): its subscription running or ended, its
   * currency (ISO 4217, as Stripe writes it, e.g. 'eur') and the business's saved Stripe
   * discountOnReferral (cents, null while unsaved); all null otherwise.
   */
  stripe_state: StripeBilling | null;
  stripe_currency: string | null;
  stripe_discount_cents: number | null;
  /** 'Add to Mindbody' (issue 33 item 4): 'pending' / 'failed', null otherwise. */
  add_state?: 'pending' | 'failed' | null;
  /** Why adding it to Mindbody failed (with `add_state` 'failed'). */
  add_error?: string | null;
  /** `countingBranch(m)`, and its Mindbody membership ended / suspended (`branchStateColumns`). */
  counting: boolean;
  ended: boolean;
  suspended: boolean;
}

/** A tree and one of its branches (all null when it has none), as the page statements read them. */
type PageTreeRow = SummarySqlRow &
  (
    | {
        branch_id: string;
        branch_name: string;
        branch_email: string;
        branch_counting: boolean;
        branch_ended: boolean;
        branch_suspended: boolean;
      }
    | {
        branch_id: null;
        branch_name: null;
        branch_email: null;
        branch_counting: null;
        branch_ended: null;
        branch_suspended: null;
      }
  );

/** A row of the page statement: a `PageTreeRow` and the list's total. */
type PageSqlRow = PageTreeRow & { total: number };

/** Sort expressions by key; only these strings ever reach ORDER BY. */
const SORT_SQL: Record<FastSortKey, string> = {
  memberName: 'lower(m.name)',
  memberEmail: 'lower(m.email)',
  branches: 'branch_count',
  createdAt: 'm.created_at',
};

/** The sorts the unfiltered page statements serve; the others go through `filteredPageStatement`. */
type FastSortKey = Exclude<MemberSortKey, 'newPriceCents' | 'status'>;

/**
 * SQL: joins the member `m` was referred by as `r` (`r.name`: NULL for a tree nobody referred;
 * `$1` = business), by primary key, fenced by OFFSET 0 so every plan probes it per page row.
 */
const REFERRER_JOIN = `LEFT JOIN LATERAL (SELECT r.name FROM members r
    WHERE r.business_id = $1 AND r.id = m.referred_by_id OFFSET 0) r ON true`;

/** The `members` columns a summary reads as they are. */
const SUMMARY_PLAIN_COLUMNS = [
  'id',
  'name',
  'email',
  'membership_price_cents',
  'discount_cents',
  'referred_by_id',
  'mindbody_client_id',
];

/**
 * SQL: the joins `SUMMARY_COLUMNS` reads on `members m` of business `$1` (issue 36: they were
 * subqueries per row, evaluated for every row a plan walked, the rows an OFFSET skips and a
 * filtered list's every match included):
 * - `z`: the business's own row, ONE row read once per statement: its reward and cap
 *   (`rewardRuleJson`) and its saved Stripe discountOnReferral (`stripe_member_integrations`).
 * - `s`: m's subscription on the business's Stripe (issue 32: imported, one per member by its
 *   unique `(business_id, member_id)` index; Mindbody comes first, a Mindbody member never has
 *   one), a LATERAL fenced by OFFSET 0 so every plan, the generic one included, probes that index
 *   for the rows the statement returns instead of hashing the business's subscriptions.
 */
export const SUMMARY_JOINS = `CROSS JOIN (SELECT ${rewardRuleJson('zb')} AS reward_rule,
      si.discount_on_referral_cents AS stripe_discount_cents
    FROM businesses zb LEFT JOIN stripe_member_integrations si ON si.business_id = zb.id
    WHERE zb.id = $1) z
  LEFT JOIN LATERAL (SELECT s.ended_at, s.currency FROM stripe_member_subscriptions s
    WHERE s.business_id = $1 AND s.member_id = m.id AND m.mindbody_client_id IS NULL OFFSET 0) s ON true`;

/**
 * A summary's columns on `members m` joined with `SUMMARY_JOINS`: the plain ones, its state
 * (`branchStateColumns`), its `price_state` (`MindbodyPriceState`), the business's reward rule
 * and its Stripe billing (`stripe_state` 'running' | 'ended', its currency and the business's
 * Stripe discount; NULLs for a member not billed on Stripe).
 */
export const SUMMARY_COLUMNS = `${SUMMARY_PLAIN_COLUMNS.map((column) => `m.${column}`).join(', ')},
  ${branchStateColumns('m')},
  CASE WHEN m.mindbody_client_id IS NULL THEN NULL
    WHEN m.mindbody_cancelled_at IS NOT NULL THEN 'ended'
    WHEN m.mindbody_priced_at IS NULL THEN 'pending'
    WHEN m.mindbody_autopay_cents IS NULL THEN 'no-autopay' END AS price_state,
  m.mindbody_next_charge_cents AS next_charge_cents, m.mindbody_next_charge_at AS next_charge_at,
  CASE WHEN m.mindbody_client_id IS NOT NULL THEN m.mindbody_referred_by END AS referral_source,
  z.reward_rule,
  CASE WHEN s.currency IS NULL THEN NULL WHEN s.ended_at IS NULL THEN 'running' ELSE 'ended' END AS stripe_state,
  s.currency AS stripe_currency,
  CASE WHEN s.currency IS NOT NULL THEN z.stripe_discount_cents END AS stripe_discount_cents,
  m.mindbody_add_state AS add_state, m.mindbody_add_error AS add_error`;

/** The business's Mindbody discountOnReferral, shown on Mindbody rows (docs/product.md#constants); `$1` = business id. */
export const INTEGRATION_DISCOUNT = `(SELECT discount_on_referral_cents FROM mindbody_integrations WHERE business_id = $1)
  AS integration_discount_cents`;

/**
 * The members list's search on `members m` of the business in `$1`: name or email contains the
 * pattern in `param` (a `likeSubstring` pattern). The rows come through `members_search_keys_idx`
 * (migration MemberSearchKeys: the business's own trigram keys of the pattern's words, computed
 * from the pattern itself, whose `%` and escapes are word breaks as in the text), then every one
 * is checked with LIKE. A pattern without a word of three characters has no key (an empty set):
 * the key test then drops out when the statement is planned (the search is planned for its
 * pattern), and the LIKE walks the business's rows.
 */
export const memberSearch = (param: string): string =>
  `((cardinality(member_search_keys($1, ${param}, '')) = 0
     OR member_search_keys(m.business_id, m.name, m.email) @> member_search_keys($1, ${param}, ''))
   AND ${likeAnyColumn(['m.name', 'm.email'], param)})`;

/** A member of a list page, with its branches in the order they were added. */
export interface PageMember {
  member: MemberSummary;
  branchDetails: BranchDetail[];
  /** The name of the member it was referred by, null for a tree nobody referred. */
  referrerName: string | null;
}

/** A summary row as a `MemberSummary` (cents; branch count 0 when the row has none). */
export const toSummary = (row: SummarySqlRow): MemberSummary => ({
  id: row.id,
  name: row.name,
  email: row.email,
  membershipPriceCents: row.membership_price_cents,
  discountCents: row.discount_cents,
  referredById: row.referred_by_id,
  mindbodyClientId: row.mindbody_client_id,
  branchCount: row.branch_count ?? 0,
  integrationDiscountCents: row.integration_discount_cents ?? null,
  mindbodyPriceState: row.price_state,
  mindbodyNextCharge:
    row.next_charge_cents !== null && row.next_charge_cents !== undefined && row.next_charge_at
      ? { amountCents: row.next_charge_cents, on: new Date(row.next_charge_at).toISOString() }
      : null,
  referralSource: row.referral_source ?? null,
  rewardRule: row.reward_rule ?? undefined,
  stripeBilling: row.stripe_state,
  stripeCurrency: row.stripe_currency,
  stripeDiscountCents: row.stripe_discount_cents,
  mindbodyClientRequest: row.add_state
    ? { state: row.add_state, message: row.add_error ?? null }
    : null,
  state: { counting: row.counting, ended: row.ended, suspended: row.suspended },
});

/** A branch's detail with its status (a branch's `StatusFacts`). */
const toBranchDetail = (
  id: string,
  name: string,
  email: string,
  state: MemberSummary['state'],
): BranchDetail => ({
  id,
  branchName: name,
  branchEmail: email,
  status: memberStatus({ isBranch: true, ...state }),
});

/** SQL: the number of counting branches (`countingBranch`) per tree of business `$1`. */
const COUNTING_BRANCHES_PER_TREE = `SELECT referred_by_id AS tree_id, count(*)::int AS branch_count
           FROM members b WHERE business_id = $1 AND ${countingBranch('b')}
           GROUP BY referred_by_id`;

/**
 * A search's total is exact up to this many matches; past it the page says "500+"
 * (docs/product.md#branches): counting every match of a common word cost more than the page.
 */
export const SEARCH_TOTAL_CAP = 500;

/**
 * The SELECT that turns a page of `members` rows into the page statements' rows: each tree's
 * summary (`SUMMARY_COLUMNS` through `SUMMARY_JOINS`), its referrer's name and its branches as
 * joined rows (one per branch, or one null branch), ordered by `orderBy` then the branches' order.
 * Everything a row looks up is joined AFTER the page is cut, so only the page's rows pay for it
 * (docs/decisions/list-pages-against-their-own-sql.md, section 4).
 * @param page.from FROM item(s) ending with the page's rows as `m`: plain `members` columns (and
 *   the sort's own), already cut to the page
 * @param page.total SQL of the list's total (a `total` column), if the statement has one
 * @param page.columns more output columns, before the summary's (each followed by a comma)
 */
const pageRowsOf = (page: {
  from: string;
  orderBy: string;
  total?: string;
  columns?: string;
}): string => `
     SELECT ${page.columns ?? ''}${SUMMARY_COLUMNS}, b.id AS branch_id, b.name AS branch_name, b.email AS branch_email,
       b.counting AS branch_counting, b.ended AS branch_ended, b.suspended AS branch_suspended,
       ${page.total ? `${page.total} AS total, ` : ''}${INTEGRATION_DISCOUNT}, r.name AS referrer_name
     FROM ${page.from}
     ${SUMMARY_JOINS}
     ${REFERRER_JOIN}
     ${BRANCHES_JOIN}
     ORDER BY ${page.orderBy}, b.created_at, b.id`;

/**
 * SQL: the branches of tree `m` as joined rows `b`. They are a LATERAL subquery fenced by OFFSET
 * 0, so every plan (the generic one included, which cannot know the page is small) looks each
 * tree's branches up through members_referred_by_idx instead of hash-joining the whole business
 * (docs/decisions/members-page-joined-branches.md).
 */
const BRANCHES_JOIN = `LEFT JOIN LATERAL (
       SELECT b.id, b.name, b.email, b.created_at, ${branchStateColumns('b')} FROM members b
       WHERE b.business_id = $1 AND b.referred_by_id = m.id OFFSET 0) b ON true`;

/**
 * The text of the page statement for one sort × order, with or without a search (`$4`, and `$5`
 * the count limit: `searchCountLimit`); `$1` is the business, `$2` the page size, `$3` the offset.
 * The page is cut on plain `members` rows; `pageRowsOf` adds what each row shows.
 */
function pageStatementText(sort: FastSortKey, order: 'asc' | 'desc', searching: boolean): string {
  const direction = order === 'desc' ? 'DESC' : 'ASC';
  const orderBy = `${SORT_SQL[sort]} ${direction}, m.id ${direction}`;
  let page: string;
  let total = `(SELECT member_count FROM businesses WHERE id = $1)`;
  let hits = '';
  if (sort === 'branches') {
    // Sorted by branch count: every match is counted and sorted (all of them are needed).
    if (searching)
      hits = `WITH hits AS MATERIALIZED (
        SELECT m.* FROM members m WHERE m.business_id = $1 AND ${memberSearch('$4')})`;
    page = `(WITH counts AS (
           ${COUNTING_BRANCHES_PER_TREE})
         SELECT m.*, COALESCE(c.branch_count, 0) AS branch_count
         FROM ${searching ? 'hits m' : 'members m'} LEFT JOIN counts c ON c.tree_id = m.id
         ${searching ? '' : 'WHERE m.business_id = $1'}
         ORDER BY ${orderBy} LIMIT $2 OFFSET $3)`;
    if (searching) total = `(SELECT count(*)::int FROM hits)`;
  } else if (searching) {
    // `hits`: at most $5 + 1 matches, in no order, through the business's search keys. When there
    // are no more than $5, they are all the matches: counted and sorted here. Past $5 the count
    // stops and the page walks the sort's (business_id, …, id) index instead, checking each row
    // until the page is full, never visiting the other matches
    // (docs/decisions/business-led-list-indexes.md).
    hits = `WITH hits AS MATERIALIZED (
        SELECT m.* FROM members m WHERE m.business_id = $1 AND ${memberSearch('$4')}
        LIMIT $5::int + 1)`;
    page = `((SELECT m.* FROM hits m WHERE (SELECT count(*) FROM hits) <= $5::int
          ORDER BY ${orderBy} LIMIT $2 OFFSET $3)
         UNION ALL
         (SELECT m.* FROM members m
          WHERE m.business_id = $1 AND ${likeAnyColumn(['m.name', 'm.email'], '$4')}
            AND (SELECT count(*) FROM hits) > $5::int
          ORDER BY ${orderBy} LIMIT $2 OFFSET $3))`;
    total = `(SELECT count(*)::int FROM hits)`;
  } else {
    // Without a search the total is the business's member counter (kept by triggers, migration
    // BusinessMemberCount).
    page = `(SELECT m.* FROM members m WHERE m.business_id = $1
         ORDER BY ${orderBy} LIMIT $2 OFFSET $3)`;
  }
  return `${hits}${pageRowsOf({ from: `${page} m`, orderBy, total })}`;
}

/** The filtered list's sort expressions on its `matches` rows (`filteredPageStatement`). */
const FILTERED_SORT_SQL: Record<MemberSortKey, string> = {
  memberName: 'lower(m.name)',
  memberEmail: 'lower(m.email)',
  branches: 'm.branch_count',
  createdAt: 'm.created_at',
  newPriceCents: 'm.price_cents',
  status: 'm.status_rank',
};

/**
 * SQL: `stripeBilled('m')` in `filteredPageStatement`'s matches, read from its join `sb` of the
 * business's Stripe subscriptions (one hash join, not an index probe per member).
 */
const FILTERED_STRIPE_BILLED = '(sb.member_id IS NOT NULL)';

/**
 * SQL of each `managed` filter on `m` (docs/product.md#branches): billed by Mindbody, billed on the
 * business's Stripe (`stripeBilled`; Mindbody first, as the rows say), or kept in Grove by hand.
 */
const MANAGED_FILTER_SQL: Record<MemberManagedFilter, string> = {
  mindbody: 'm.mindbody_client_id IS NOT NULL',
  stripe: `(m.mindbody_client_id IS NULL AND ${FILTERED_STRIPE_BILLED})`,
  grove: `(m.mindbody_client_id IS NULL AND NOT ${FILTERED_STRIPE_BILLED})`,
};

/** SQL: `m`'s status as its place in `MEMBER_STATUSES` (the status sort). */
const STATUS_RANK = `array_position(ARRAY[${MEMBER_STATUSES.map((status) => `'${status}'`).join(', ')}], ${memberStatusSql('m')})`;

/** SQL: `m` has a live referral link (not revoked, not expired). */
const HAS_LIVE_LINK = `EXISTS (SELECT 1 FROM referral_links l WHERE l.business_id = $1 AND l.member_id = m.id
  AND ${liveReferralLink()})`;

/**
 * The page statement of a filtered list, or of a sort by price or status: every match of the
 * business with its counting branches, price (`rowPrice`) and status, counted and sorted, then the
 * page's trees with their branches as the other page statements return them. `$1` the business,
 * `$2` the page size, `$3` the offset, then the filters' values. Scans the business's members
 * (fine for the thousands a gym has; the unfiltered sorts keep their index walks). What every
 * match needs from elsewhere is joined once: its counting branches (one aggregate), the
 * business's row `zb` (reward and cap, one row) and the business's Stripe subscriptions `sb` (one
 * hash join); what only the page shows is read for the page's rows alone (`pageRowsOf`): issue
 * 36, a lookup per match took 0.4–0.9 s at 10,000 members.
 * @returns the statement and its parameters after `$3`
 */
function filteredPageStatement(query: MemberPageQuery): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length + 3}`;
  };
  const filters = query.filters ?? {};
  const where = ['m.business_id = $1'];
  if (query.search) where.push(memberSearch(param(likeSubstring(query.search))));
  if (filters.status) where.push(`${memberStatusSql('m')} = ${param(filters.status)}::text`);
  if (filters.managed) where.push(MANAGED_FILTER_SQL[filters.managed]);
  if (filters.hasLink) where.push(`${filters.hasLink === 'no' ? 'NOT ' : ''}${HAS_LIVE_LINK}`);
  if (filters.referredBy) where.push(`m.referred_by_id = ${param(filters.referredBy)}::uuid`);
  const direction = query.order === 'desc' ? 'DESC' : 'ASC';
  const orderBy = `${FILTERED_SORT_SQL[query.sort]} ${direction}, m.id ${direction}`;
  const branches = 'COALESCE(c.branch_count, 0)';
  const price = rowPrice('m', branches, { billed: FILTERED_STRIPE_BILLED, business: 'zb' });
  const text = `WITH counts AS (
       ${COUNTING_BRANCHES_PER_TREE}),
     matches AS MATERIALIZED (
       SELECT m.*, ${branches} AS branch_count, ${price} AS price_cents, ${STATUS_RANK} AS status_rank
       FROM members m LEFT JOIN counts c ON c.tree_id = m.id
       CROSS JOIN (SELECT referrer_reward, reward_cap_percent, reward_yearly_cap_cents, reward_max_branches
         FROM businesses WHERE id = $1) zb
       LEFT JOIN stripe_member_subscriptions sb ON sb.business_id = $1 AND sb.member_id = m.id
       WHERE ${where.join(' AND ')})
     ${pageRowsOf({
       from: `(SELECT m.* FROM matches m ORDER BY ${orderBy} LIMIT $2 OFFSET $3) m`,
       orderBy,
       total: '(SELECT count(*)::int FROM matches)',
     })}`;
  return { text, params };
}

/** True when a page needs `filteredPageStatement`: a filter is set, or the sort is price or status. */
const isFiltered = (query: MemberPageQuery): boolean =>
  query.sort === 'newPriceCents' ||
  query.sort === 'status' ||
  Object.values(query.filters ?? {}).some((value) => value !== undefined);

/**
 * How far a search page counts its matches: `SEARCH_TOTAL_CAP`, or the end of the page when that
 * is further, so a page past the cap still learns whether another one follows.
 */
const searchCountLimit = (query: MemberPageQuery): number =>
  Math.max(SEARCH_TOTAL_CAP, query.offset + query.limit);

/** A row of `PAGE_BY_IDS`: the business's search version, and a tree with one of its branches (all null on an empty page). */
type IndexedPageRow = { version: string } & (PageTreeRow | { [column in keyof PageTreeRow]: null });

/**
 * A search page the index answered (`MemberSearchIndexes`): `$1` the business, `$2` the page's
 * member ids in the page's order. Returns each tree with its branches (one row per branch, as the
 * page statement) and, in the same snapshot, `businesses.member_search_version`, which the caller
 * compares with its index's; an empty page is one row of nulls carrying the version.
 */
const PAGE_BY_IDS = preparedStatement(
  pageRowsOf({
    columns: 'v.version, ',
    from: `(SELECT member_search_version::text AS version FROM businesses WHERE id = $1) v
  LEFT JOIN LATERAL (
    SELECT m.*, array_position($2::uuid[], m.id) AS position FROM members m
    WHERE m.business_id = $1 AND m.id = ANY($2::uuid[])) m ON true`,
    orderBy: 'm.position',
  }),
);

/**
 * The page's rows grouped back into trees: a tree's rows are consecutive (the statements order
 * by tree first), its branches in the order added; its branch count is the number of its branch
 * rows that count (`countingBranch`).
 */
function treesOf(rows: readonly PageTreeRow[]): PageMember[] {
  const members: PageMember[] = [];
  let tree: PageMember | undefined;
  for (const row of rows) {
    if (tree?.member.id !== row.id) {
      tree = { member: toSummary(row), branchDetails: [], referrerName: row.referrer_name ?? null };
      members.push(tree);
    }
    if (row.branch_id !== null) {
      tree.branchDetails.push(
        toBranchDetail(row.branch_id, row.branch_name, row.branch_email, {
          counting: row.branch_counting,
          ended: row.branch_ended,
          suspended: row.branch_suspended,
        }),
      );
      if (row.branch_counting) tree.member.branchCount += 1;
    }
  }
  return members;
}

/** Page statements built so far, by `pageStatement`'s key. */
const pageStatements = new Map<string, PreparedStatement | string>();

/**
 * The page statement for a sort × order × search-or-not, built once: a request neither rebuilds
 * nor re-hashes its ~1 KB of SQL.
 *
 * Without a search: a named prepared statement per sort × order with a generic plan, planned once
 * per connection (see PreparedReads). A search is plain text, planned for its pattern each time
 * (docs/decisions/search-planned-per-pattern.md).
 */
function pageStatement(
  sort: FastSortKey,
  order: 'asc' | 'desc',
  searching: boolean,
): PreparedStatement | string {
  const key = `${sort} ${order} ${searching}`;
  let statement = pageStatements.get(key);
  if (statement === undefined) {
    const text = pageStatementText(sort, order, searching);
    statement = searching ? text : preparedStatement(text);
    pageStatements.set(key, statement);
  }
  return statement;
}

/**
 * The owner's way to the `members` table: the members list, search, counts and every edit by hand.
 * TENANCY LIVES HERE: every method takes the `BusinessScope` first (`sessionScope(user)` from the
 * controller) and every statement filters on its business id, so no caller can reach another
 * business's rows. Methods that change data take the transaction's EntityManager after it.
 *
 * Who else touches `members`, and why it stays there:
 * - `MembersCsvRepository` (members-csv) WRITES hand-added members in bulk for a CSV import
 *   (set-based inserts, changes and referrers, never a Mindbody-managed row) and reads them in
 *   batches for the CSV export, with this file's summary columns.
 * - `MindbodyMembersRepository` (mindbody/persistence) WRITES the managed members in bulk: the
 *   import and sync upsert a page of clients in one statement, keep their autopay and price state,
 *   and 'Remove integration' clears their Mindbody columns (`releaseManaged`). Those statements
 *   are the Mindbody pipeline's (its referrer matching and pricing rules), so they live with it;
 *   they touch only rows with a `mindbody_client_id` of the business they are given.
 * - `ReferralLinksRepository`, `ProspectsRepository` and `JoinFlagsRepository` only READ members
 *   joined into their own one-statement pages and the public join (a name, an email key, a lock on
 *   the referrer's row); Referral Links counts members past its last page through `count` here.
 */
@Injectable()
export class MembersRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: PreparedReads,
    private readonly searchIndexes: MemberSearchIndexes,
  ) {}

  /**
   * One page of members with their branches and the number of matching members, in ONE statement
   * (a list request costs one round trip besides the session check): the page's trees left-joined
   * to their branches, grouped back into trees here. Stable order: ties broken by
   * id. Sorting by name, email or date walks the matching (business_id, …, id) index; sorting by
   * branch count aggregates the counts once per business and hash-joins them. The branch count is
   * the number of branch entries (docs/product.md#states).
   *
   * A search sorted by name, email or date is answered from the business's in-memory index
   * (`indexedSearchPage`: exact total, only the page's trees read). For a business too large for
   * one, it is searched here and counts its matches up to `SEARCH_TOTAL_CAP` (or the end of the
   * page, when further): past that, `total` is that limit and `totalCapped` is true (more match).
   * Sorted by branch count, or without a search, `total` is exact.
   */
  async findPage(
    scope: BusinessScope,
    query: MemberPageQuery,
  ): Promise<{ members: PageMember[]; total: number; totalCapped: boolean }> {
    if (isFiltered(query)) return this.filteredPage(scope, query);
    const sort = query.sort as FastSortKey;
    if (query.search && sort !== 'branches') {
      const indexed = await this.indexedSearchPage(scope, query, query.search, sort);
      if (indexed) return indexed;
    }
    const params: unknown[] = [scope.businessId, query.limit, query.offset];
    const countLimit =
      query.search && query.sort !== 'branches' ? searchCountLimit(query) : undefined;
    if (query.search) params.push(likeSubstring(query.search));
    if (countLimit !== undefined) params.push(countLimit);
    const statement = pageStatement(sort, query.order, Boolean(query.search));
    const page = await pageOfRows(
      await this.reads.query<PageSqlRow>(statement, params),
      query.offset,
      () => this.count(scope, query.search),
      (row) => row,
    );
    const members = treesOf(page.rows);
    if (countLimit !== undefined && page.total > countLimit)
      return { total: countLimit, totalCapped: true, members };
    return { total: page.total, totalCapped: false, members };
  }

  /**
   * A page of the filtered list (`filteredPageStatement`): a filter set, or a sort by price or
   * status. The total counts every match, exactly.
   */
  private async filteredPage(
    scope: BusinessScope,
    query: MemberPageQuery,
  ): Promise<{ members: PageMember[]; total: number; totalCapped: boolean }> {
    const { text, params } = filteredPageStatement(query);
    const run = (offset: number, limit: number) =>
      this.dataSource.query(text, [scope.businessId, limit, offset, ...params]) as Promise<
        PageSqlRow[]
      >;
    const page = await pageOfRows(
      await run(query.offset, query.limit),
      query.offset,
      async () => (await run(0, 1))[0]?.total ?? 0,
      (row) => row,
    );
    return { members: treesOf(page.rows), total: page.total, totalCapped: false };
  }

  /**
   * A search page from the business's in-memory index (`MemberSearchIndexes`): the matches found,
   * counted (exactly) and ordered in memory, then only the page's trees read by id, in a statement
   * that also reads the business's search version. When that version is not the index's (a member
   * was added, removed or renamed since it was built, on any instance), the index is rebuilt and
   * the page asked again; if it moved on again, or the business is too large for an index, null:
   * the caller searches in SQL.
   */
  private async indexedSearchPage(
    scope: BusinessScope,
    query: MemberPageQuery,
    search: string,
    sort: Exclude<FastSortKey, 'branches'>,
  ): Promise<{ members: PageMember[]; total: number; totalCapped: false } | null> {
    const needle = lowerSearchText(search);
    for (const rebuild of [false, true]) {
      const index = await this.searchIndexes.get(scope, rebuild);
      if (!index) return null;
      const { ids, total } = index.searchPage(needle, sort, query.order, query.offset, query.limit);
      const rows = await this.reads.query<IndexedPageRow>(PAGE_BY_IDS, [scope.businessId, ids]);
      if (rows[0]?.version !== index.version) continue;
      const trees = rows.filter((row): row is IndexedPageRow & PageTreeRow => row.id !== null);
      return { members: treesOf(trees), total, totalCapped: false };
    }
    return null;
  }

  /** How many members match the list's search (all members without one), counted row by row. */
  async count(scope: BusinessScope, search?: string): Promise<number> {
    const params: unknown[] = [scope.businessId];
    let filter = '';
    if (search) {
      params.push(likeSubstring(search));
      filter = `AND ${memberSearch('$2')}`;
    }
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS total FROM members m WHERE m.business_id = $1 ${filter}`,
      params,
    )) as { total: number }[];
    return row?.total ?? 0;
  }

  /**
   * The given members (of this business only) with their counting branches' counts, in no
   * particular order; inside `manager`'s transaction when given.
   */
  async findSummaries(
    scope: BusinessScope,
    ids: string[],
    manager?: EntityManager,
  ): Promise<MemberSummary[]> {
    if (ids.length === 0) return [];
    const rows: SummarySqlRow[] = await (manager ?? this.dataSource).query(
      `SELECT ${SUMMARY_COLUMNS},
         (SELECT count(*) FROM members b WHERE b.business_id = m.business_id AND b.referred_by_id = m.id
           AND ${countingBranch('b')})::int AS branch_count, ${INTEGRATION_DISCOUNT}
       FROM members m ${SUMMARY_JOINS} WHERE m.business_id = $1 AND m.id = ANY($2::uuid[])`,
      [scope.businessId, ids],
    );
    return rows.map(toSummary);
  }

  /**
   * The branches of the given trees in one statement, grouped by tree id, each list in the order
   * the branches were added, each with its status; in `manager`'s transaction when given.
   */
  async findBranchDetails(
    scope: BusinessScope,
    treeIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, BranchDetail[]>> {
    const byTree = new Map<string, BranchDetail[]>(treeIds.map((id) => [id, []]));
    if (treeIds.length === 0) return byTree;
    const rows: ({ id: string; name: string; email: string; referred_by_id: string } & Pick<
      SummarySqlRow,
      'counting' | 'ended' | 'suspended'
    >)[] = await (manager ?? this.dataSource).query(
      `SELECT b.id, b.name, b.email, b.referred_by_id, ${branchStateColumns('b')} FROM members b
       WHERE b.business_id = $1 AND b.referred_by_id = ANY($2::uuid[])
       ORDER BY b.created_at, b.id`,
      [scope.businessId, treeIds],
    );
    for (const row of rows) {
      byTree.get(row.referred_by_id)?.push(toBranchDetail(row.id, row.name, row.email, row));
    }
    return byTree;
  }

  /** Reads one member and locks its row until the transaction ends; null when not in this business. */
  findForUpdate(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
  ): Promise<MemberEntity | null> {
    return manager.getRepository(MemberEntity).findOne({
      where: { businessId: scope.businessId, id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /**
   * True when member `id` of this business is billed on the business's Stripe (`stripeBilled`:
   * an imported subscription, running or ended), read in `manager`'s transaction.
   */
  async stripeBilled(scope: BusinessScope, manager: EntityManager, id: string): Promise<boolean> {
    const rows = (await manager.query(
      `SELECT 1 FROM members m WHERE m.business_id = $1 AND m.id = $2 AND ${stripeBilled('m')}`,
      [scope.businessId, id],
    )) as unknown[];
    return rows.length > 0;
  }

  /** True when another member of this business (other than `exceptId`) has this email key. */
  async emailKeyTaken(
    scope: BusinessScope,
    manager: EntityManager,
    emailKey: string,
    exceptId?: string,
  ): Promise<boolean> {
    const query = manager
      .getRepository(MemberEntity)
      .createQueryBuilder('m')
      .where('m.business_id = :businessId AND m.email_key = :emailKey', {
        businessId: scope.businessId,
        emailKey,
      });
    if (exceptId) query.andWhere('m.id <> :exceptId', { exceptId });
    return query.getExists();
  }

  /** Inserts a member of this business. @returns its id */
  async insert(scope: BusinessScope, manager: EntityManager, member: NewMember): Promise<string> {
    const saved = await manager
      .getRepository(MemberEntity)
      .save({ ...member, businessId: scope.businessId, mindbodyClientId: null });
    return saved.id;
  }

  /** Changes a member of this business (no-op when `changes` is empty). */
  async update(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
    changes: MemberChanges,
  ): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await manager.getRepository(MemberEntity).update({ businessId: scope.businessId, id }, changes);
  }

  /**
   * Makes member `branchId` (a branch of no one) a branch of `treeId` and clears its "referred
   * by" note (issue 33 item 4).
   * @returns false when the member is not the business's or already a branch
   */
  async attachBranch(
    scope: BusinessScope,
    manager: EntityManager,
    treeId: string,
    branchId: string,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(MemberEntity)
      .update(
        { businessId: scope.businessId, id: branchId, referredById: IsNull() },
        { referredById: treeId, referredByNote: null },
      );
    return (result.affected ?? 0) > 0;
  }

  /**
   * True when `memberId` is `treeId` itself or one of the members `treeId` descends from (its
   * referrer, its referrer's referrer, …), so attaching `memberId` under `treeId` would close a loop.
   */
  async isSelfOrAncestor(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
    treeId: string,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH RECURSIVE up (id, referred_by_id) AS (
         SELECT id, referred_by_id FROM members WHERE business_id = $1 AND id = $3
         UNION
         SELECT m.id, m.referred_by_id FROM members m JOIN up ON m.id = up.referred_by_id
          WHERE m.business_id = $1)
       SELECT 1 FROM up WHERE id = $2 LIMIT 1`,
      [scope.businessId, memberId, treeId],
    );
    return rows.length > 0;
  }

  /**
   * Referrals to match (issue 33 item 4): the business's members with a "referred by" note and no
   * referrer, oldest first (index members_referrals_to_match), at most `limit`, and how many there are.
   */
  async referralsToMatch(
    scope: BusinessScope,
    limit: number,
  ): Promise<{ items: ReferralToMatch[]; total: number }> {
    const rows: {
      id: string;
      name: string;
      email: string;
      referred_by_note: string;
      created_at: Date;
      total: number;
    }[] = await this.dataSource.query(
      `SELECT id, name, email, referred_by_note, created_at, count(*) OVER ()::int AS total
         FROM members
        WHERE business_id = $1 AND referred_by_note IS NOT NULL AND referred_by_id IS NULL
        ORDER BY created_at, id
        LIMIT $2`,
      [scope.businessId, limit],
    );
    return {
      items: rows.map((row) => ({
        memberId: row.id,
        memberName: row.name,
        memberEmail: row.email,
        referredByNote: row.referred_by_note,
        addedAt: row.created_at.toISOString(),
      })),
      total: rows[0]?.total ?? 0,
    };
  }

  /**
   * Clears member `id`'s "referred by" note while it waits to be matched (dismissed by the desk).
   * @returns false when no such member of the business waits in Referrals to match
   */
  async dismissReferredByNote(scope: BusinessScope, id: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(
      `UPDATE members SET referred_by_note = NULL
        WHERE business_id = $1 AND id = $2 AND referred_by_note IS NOT NULL AND referred_by_id IS NULL`,
      [scope.businessId, id],
    )) as [unknown, number];
    return affected > 0;
  }

  /** Sets which tree this member is a branch of (null: it is a branch of none). */
  async setReferrer(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
    referrerId: string | null,
  ): Promise<void> {
    await manager
      .getRepository(MemberEntity)
      .update({ businessId: scope.businessId, id }, { referredById: referrerId });
  }

  /**
   * Detaches `branchId` from `treeId` (both of this business).
   * @returns false when `branchId` was not a branch of `treeId`
   */
  async detachBranch(
    scope: BusinessScope,
    manager: EntityManager,
    treeId: string,
    branchId: string,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(MemberEntity)
      .update(
        { businessId: scope.businessId, id: branchId, referredById: treeId },
        { referredById: null },
      );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Makes every branch of `treeId` a plain tree.
   * @returns the ids of the members that were its branches
   */
  async detachAllBranches(
    scope: BusinessScope,
    manager: EntityManager,
    treeId: string,
  ): Promise<string[]> {
    const [rows] = (await manager.query(
      `UPDATE members SET referred_by_id = NULL WHERE business_id = $1 AND referred_by_id = $2 RETURNING id`,
      [scope.businessId, treeId],
    )) as [{ id: string }[], number];
    return rows.map((row) => row.id);
  }

  /** Deletes a member of this business. */
  async delete(scope: BusinessScope, manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(MemberEntity).delete({ businessId: scope.businessId, id });
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
