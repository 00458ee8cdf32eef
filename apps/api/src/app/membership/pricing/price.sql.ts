// A member's price in SQL (docs/architecture.md#api-areas, "Where the price lives"): the counting
// branch, the effective price and the ledger lines. The TypeScript twin is `price.ts`;
// price-parity.integration-spec.ts runs both over the same rows on PostgreSQL.

/**
 * The one SQL statement of "this branch lowers its referrer's price now"
 * (docs/product.md#branch-qualification): the member is a branch, its qualification rule has
 * started it counting, its Mindbody membership is neither ended nor suspended, and its
 * subscription on the business's Stripe has not ended (`stripe_ended_at`, migration
 * StripeEndedMembers: a Stripe friend's lapse is a Mindbody friend's).
 *
 * @param alias the `members` row alias of the branch (e.g. 'b')
 * @returns a boolean SQL expression, to AND into a WHERE or to use in a CASE
 */
export function countingBranch(alias: string): string {
  return `(${alias}.referred_by_id IS NOT NULL AND ${alias}.branch_counting_since IS NOT NULL
    AND ${alias}.mindbody_cancelled_at IS NULL AND ${alias}.mindbody_suspended_at IS NULL
    AND ${alias}.stripe_ended_at IS NULL)`;
}

/**
 * SQL: member row `alias`'s membership has ended: its Mindbody membership
 * (`mindbody_cancelled_at`) or its subscription on the business's Stripe (`stripe_ended_at`).
 */
export const membershipEnded = (alias: string): string =>
  `(${alias}.mindbody_cancelled_at IS NOT NULL OR ${alias}.stripe_ended_at IS NOT NULL)`;

/**
 * SQL: member row `alias` is billed on the business's Stripe (issue 32): it has an imported
 * subscription (running or ended; `stripe_member_subscriptions`, one per member, read by its
 * unique `(business_id, member_id)` index). A Mindbody member never is (the import skips them),
 * and Mindbody comes first wherever both are asked.
 */
export const stripeBilled = (alias: string): string =>
  `EXISTS (SELECT 1 FROM stripe_member_subscriptions s
     WHERE s.business_id = ${alias}.business_id AND s.member_id = ${alias}.id)`;

/**
 * SQL: member row `alias` is kept in Grove by hand: managed by neither Mindbody nor the business's
 * Stripe (`stripeBilled`), so a hand edit or a CSV import may change it (issue 32).
 */
export const keptByHand = (alias: string): string =>
  `(${alias}.mindbody_client_id IS NULL AND NOT ${stripeBilled(alias)})`;

/**
 * SQL: the business's reward for referrers (`<business>.referrer_reward`, JSON, NULL for the
 * ongoing discount) as it applies to member row `member`: NULL for a member billed by Mindbody or
 * on the business's Stripe (not `keptByHand`), whose price follows that integration's discount per
 * referral whatever the reward (docs/product.md#referrer-reward). The member page, the member
 * emails and their previews word the reward from it, so they say the same thing.
 */
export const memberReferrerReward = (member: string, business: string): string =>
  `CASE WHEN ${keptByHand(member)} THEN ${business}.referrer_reward END`;

/**
 * SQL: the saved Stripe discount `column` of member row `alias`'s business
 * (`discount_on_referral_cents` or `discount_for_referee_cents` of `stripe_member_integrations`),
 * NULL when none is saved or the business bills nobody on Stripe.
 */
export const stripeDiscount = (
  alias: string,
  column: 'discount_on_referral_cents' | 'discount_for_referee_cents',
): string =>
  `(SELECT si.${column} FROM stripe_member_integrations si WHERE si.business_id = ${alias}.business_id)`;

/**
 * SQL: member row `alias`'s discount per referral in cents as its bill has it (the member page's
 * `memberPrice`): its business's Mindbody `discountOnReferral` for a Mindbody member, the business's
 * saved Stripe discount for a member billed on Stripe (`stripeBilled`), 0 while that integration
 * has none saved; else the member's own `discount_cents`.
 */
export const discountPerReferral = (alias: string): string => `CASE
  WHEN ${alias}.mindbody_client_id IS NOT NULL THEN COALESCE((SELECT i.discount_on_referral_cents
    FROM mindbody_integrations i WHERE i.business_id = ${alias}.business_id), 0)
  WHEN ${stripeBilled(alias)} THEN COALESCE(${stripeDiscount(alias, 'discount_on_referral_cents')}, 0)
  ELSE ${alias}.discount_cents END`;

/**
 * SQL: the columns a member's status is made of (`StatusFacts` of `membership/members/member-row.ts`), on
 * `members` row `alias`: `<prefix>counting` (`countingBranch`), `<prefix>ended` (its Mindbody
 * membership or its Stripe subscription has ended, `membershipEnded`) and `<prefix>suspended`
 * (its Mindbody membership is suspended), all booleans.
 */
export function branchStateColumns(alias: string, prefix = ''): string {
  return `${countingBranch(alias)} AS ${prefix}counting, ${membershipEnded(alias)} AS ${prefix}ended,
    ${alias}.mindbody_suspended_at IS NOT NULL AS ${prefix}suspended`;
}

/**
 * SQL: the most member row `<alias>`'s branches may take off its membership price each month
 * (cents, an int): the twin of `maxReferralDiscountCents` (@grove/contracts,
 * docs/product.md#referrer-reward), from its business's reward (`referrer_reward`, NULL = the
 * ongoing discount) and cap (`reward_cap_percent`, `reward_yearly_cap_cents`): 0 for a reward that
 * is not the ongoing discount, else floor(price × percent / 100), at most floor(yearly cap / 12).
 * @param business alias of the member's `businesses` row when the statement has joined it once
 *   (a list over many members: one read, not a lookup per row); omitted, a subquery reads it
 */
export const maxReferralDiscount = (alias: string, business?: string): string => {
  const z = business ?? 'z';
  const cap = `CASE WHEN COALESCE(${z}.referrer_reward->>'kind', 'discount') <> 'discount' THEN 0
     ELSE LEAST(${alias}.membership_price_cents::bigint * ${z}.reward_cap_percent / 100,
       COALESCE(${z}.reward_yearly_cap_cents / 12, ${alias}.membership_price_cents)) END`;
  return business
    ? `(${cap})::int`
    : `(SELECT ${cap}
   FROM businesses z WHERE z.id = ${alias}.business_id)::int`;
};

/**
 * SQL: how many of member row `<alias>`'s `branches` counting branches (an int SQL expression) the
 * ongoing discount rewards: all, or at most its business's `reward_max_branches` (the cap on
 * rewarded branches, NULL for none). The twin of `rewardedBranches` (@grove/contracts).
 * @param business as `maxReferralDiscount`'s
 */
export const rewardedBranches = (alias: string, branches: string, business?: string): string =>
  `LEAST(${branches}, COALESCE(${
    business
      ? `${business}.reward_max_branches`
      : `(SELECT z.reward_max_branches FROM businesses z WHERE z.id = ${alias}.business_id)`
  }, ${branches}))`;

/**
 * SQL: the IANA time zone of business row `alias` (a text expression), as contracts'
 * `businessLocale(country, timeZone).timeZone` resolves it: its stored `time_zone` when PostgreSQL
 * knows it, else its country's default zone, else 'UTC' (the function `business_time_zone`,
 * migration RewardYearInTimeZone; it never fails).
 */
export const businessTimeZone = (alias: string): string =>
  `business_time_zone(${alias}.country, ${alias}.time_zone)`;

/**
 * SQL: the calendar year (an int) of the timestamptz expression `instant` in time zone `zone` (a
 * text expression, e.g. `businessTimeZone('z')`): the year the cap on rewarded friends counts in.
 * The twin of `rewardYear` (@grove/contracts, docs/product.md#referrer-reward).
 */
export const rewardYear = (instant: string, zone: string): string =>
  `extract(year FROM (${instant}) AT TIME ZONE ${zone})::int`;

/**
 * SQL: how many rewards the referrer `referrerId` (a uuid expression) was owed this calendar year
 * in time zone `zone` that were not capped (an int): the rewards the business's most friends
 * rewarded a year counts (docs/product.md#referrer-reward). It reads `referrer_rewards_owed` from
 * 1 January 00:00 in the zone (`date_trunc` on the local time, back to an instant), which is
 * `rewardYear(counted_at) = rewardYear(now())` for rows that counted by now, and what the trigger
 * `members_referrer_reward_owed` compares with the most (migration RewardYearInTimeZone).
 */
export const rewardedThisYear = (referrerId: string, zone: string): string =>
  `(SELECT count(*)::int FROM referrer_rewards_owed o
     WHERE o.referrer_id = ${referrerId} AND NOT o.capped
       AND o.counted_at >= date_trunc('year', now() AT TIME ZONE ${zone}) AT TIME ZONE ${zone})`;

/**
 * SQL: a hand-managed member's price with `branches` counting branches (an int SQL expression),
 * cents: max(0, membership price − min(own discount × `rewardedBranches`, `maxReferralDiscount`)),
 * the twin of `newPriceCents` (price.ts) without a discount for referee.
 */
const handPrice = (alias: string, branches: string, business?: string): string =>
  `GREATEST(0, ${alias}.membership_price_cents - LEAST(${alias}.discount_cents * ${rewardedBranches(alias, branches, business)}, ${maxReferralDiscount(alias, business)}))`;

/**
 * SQL: contracts' `RewardPriceRule` (`ongoing`, `capPercent`, `yearlyCapCents`, `maxBranches`) of
 * `businesses` row `business`, a JSON object, so TypeScript can apply the same cap.
 */
export const rewardRuleJson = (business: string): string =>
  `json_build_object('ongoing', COALESCE(${business}.referrer_reward->>'kind', 'discount') = 'discount',
     'capPercent', ${business}.reward_cap_percent, 'yearlyCapCents', ${business}.reward_yearly_cap_cents,
     'maxBranches', ${business}.reward_max_branches)`;

/**
 * SQL: a JSON object column `reward_rule`, contracts' `RewardPriceRule` of member row `<alias>`'s
 * business (`rewardRuleJson`), read by a subquery: for one member's statements (a list reads it
 * once, `SUMMARY_JOINS`).
 */
export const rewardRuleColumn = (alias: string): string =>
  `(SELECT ${rewardRuleJson('z')} FROM businesses z WHERE z.id = ${alias}.business_id) AS reward_rule`;

/**
 * SQL: the effective price (cents) of member row `<alias>`: what the member pays.
 * - A hand-managed member: max(0, membership price − min(discount × branches, the business's cap
 *   `maxReferralDiscount`)), as the Branches screen shows it (`toMemberRow`,
 *   docs/product.md#constants, docs/product.md#referrer-reward).
 * - A Mindbody-managed member: the autopay Grove bills through Mindbody, max(0, membership
 *   (autopay) price − discountOnReferral × branches − discountForReferee if it is a branch)
 *   (docs/product.md#constants; the member page shows it; the sync writes it,
 *   `targetAutopayCents`), with the integration's discounts (none while unsaved); NULL while it
 *   has no known price (not priced yet, or no autopay contract), which writes no ledger line.
 * - A member billed on the business's Stripe (`stripeBilled`, issue 32): the same rule with the
 *   Stripe integration's discounts (none while unsaved) on its subscription's price, as the
 *   Stripe sync writes it (`StripeMembersService`, `targetAutopayCents`).
 * The branches are those that count now (`countingBranch`, docs/product.md#branch-qualification),
 * read from `members` (a statement sees them as they were when the statement began).
 * @param counts SQL predicate on branch row `b` (default `countingBranch('b')`); only the
 *   LifecycleBackfill migration, which ran before branches could be pending, passes its own
 * @param managedBill false: a Mindbody member's undiscounted membership price (what the
 *   LifecycleBackfill migration recorded)
 */
export const effectivePrice = (
  alias: string,
  counts: string = countingBranch('b'),
  managedBill = true,
): string => {
  const branches = `(SELECT count(*) FROM members b WHERE b.business_id = ${alias}.business_id
        AND b.referred_by_id = ${alias}.id AND ${counts})::int`;
  const discount = (column: string) =>
    `COALESCE((SELECT i.${column} FROM mindbody_integrations i WHERE i.business_id = ${alias}.business_id), 0)`;
  const managed = managedBill
    ? `GREATEST(0, ${alias}.membership_price_cents - ${discount('discount_on_referral_cents')} * ${branches}
        - CASE WHEN ${alias}.referred_by_id IS NOT NULL THEN ${discount('discount_for_referee_cents')} ELSE 0 END)`
    : `${alias}.membership_price_cents`;
  const stripe = (column: Parameters<typeof stripeDiscount>[1]) =>
    `COALESCE(${stripeDiscount(alias, column)}, 0)`;
  return `CASE
    WHEN ${alias}.mindbody_client_id IS NULL AND ${stripeBilled(alias)} THEN
      GREATEST(0, ${alias}.membership_price_cents - ${stripe('discount_on_referral_cents')} * ${branches}
        - CASE WHEN ${alias}.referred_by_id IS NOT NULL THEN ${stripe('discount_for_referee_cents')} ELSE 0 END)
    WHEN ${alias}.mindbody_client_id IS NULL THEN ${handPrice(alias, branches)}
    WHEN ${alias}.mindbody_priced_at IS NULL OR ${alias}.mindbody_autopay_cents IS NULL THEN NULL
    ELSE ${managed} END`;
};

/**
 * SQL: the last ledger line's new price of member `<alias>.id` (a LATERAL subquery named `last`
 * with column `price`; no row for a member without a ledger). Lines are ordered by id: the ledger
 * of a member is written with its row locked, so a later line always has a larger id.
 */
export const lastPrice = (alias: string): string =>
  `LEFT JOIN LATERAL (SELECT c.new_price_cents AS price FROM price_changes c
     WHERE c.business_id = ${alias}.business_id AND c.member_id = ${alias}.id
     ORDER BY c.id DESC LIMIT 1) last ON true`;

/** What `priceLinesFrom` writes; each field is SQL (a parameter or an expression on row `r`). */
export interface PriceLinesSql {
  /** A table expression of `members` rows as they are after the change, named by the caller. */
  rows: string;
  /** The reason (text) when the member already has a ledger. */
  reason: string;
  /** The causing branch's id (uuid) or NULL. */
  branchId: string;
  /** The event key's cause: the line's key is `price:<member id>:<cause>`. */
  cause: string;
  /** True when the membership has just ended by hand (new price 0); default false. */
  endedByHand?: string;
}

/**
 * SQL: one INSERT of `price_changes` for each row of `rows` whose effective price differs from
 * its ledger's last line (old = that line's price, new = `effectivePrice` or 0 once the membership
 * has ended). The first line of a member is 'member_added', an ended membership 'membership_ended'
 * (a member ended without a ledger gets none); other lines get `reason`. Idempotent by event key.
 */
export const priceLinesFrom = (sql: PriceLinesSql): string => {
  const ended = `((r.mindbody_client_id IS NOT NULL AND r.mindbody_cancelled_at IS NOT NULL)
    OR r.stripe_ended_at IS NOT NULL OR ${sql.endedByHand ?? 'false'})`;
  return `INSERT INTO price_changes (${PRICE_COLUMNS})
     SELECT r.business_id, r.id,
       CASE WHEN last.price IS NULL THEN 'member_added' WHEN p.ended THEN 'membership_ended' ELSE ${sql.reason} END,
       last.price, p.price, r.membership_price_cents, ${sql.branchId}, 'price:' || r.id || ':' || ${sql.cause}
     FROM ${sql.rows}
     CROSS JOIN LATERAL (SELECT CASE WHEN ${ended} THEN 0 ELSE ${effectivePrice('r')} END AS price,
       ${ended} AS ended) p
     ${lastPrice('r')}
     WHERE p.price IS NOT NULL AND p.price IS DISTINCT FROM last.price AND NOT (p.ended AND last.price IS NULL)
     ON CONFLICT (business_id, event_key) DO NOTHING`;
};

/** The columns of `price_changes` a ledger insert names, in this order. */
export const PRICE_COLUMNS =
  'business_id, member_id, reason, old_price_cents, new_price_cents, membership_price_cents, branch_id, event_key';

/**
 * SQL: the price the Branches table shows for member row `alias` with `branches` counting
 * branches (an int SQL expression), cents: the twin of `rowPriceCents` (price.ts); a member
 * billed on Mindbody or on the business's Stripe shows its membership price (what its bill is
 * before Grove's discount; the bill itself is the billing service's).
 * @param joined what a list statement has joined once instead of a lookup per row: `billed`, a
 *   boolean SQL expression that is `stripeBilled(alias)`, and `business`, the alias of the
 *   member's `businesses` row (`maxReferralDiscount`)
 */
export const rowPrice = (
  alias: string,
  branches: string,
  joined: { billed?: string; business?: string } = {},
): string =>
  `CASE WHEN ${alias}.mindbody_client_id IS NULL AND NOT ${joined.billed ?? stripeBilled(alias)} THEN ${handPrice(alias, branches, joined.business)}
     ELSE ${alias}.membership_price_cents END`;

/**
 * SQL: what a friend's approval starts from (docs/product.md#member-defaults), the twin of
 * `approvalPrefill` (@grove/contracts) applied to the referrer's `toMemberRow`: two integer
 * columns, `prefill_price_cents` and `prefill_discount_cents` (cents; NULL = nothing known), on
 * referring `members` row `alias`. The price is the referrer's membership price, or the
 * business's default price when Grove does not know it (a Mindbody member not priced yet,
 * without an autopay contract, or whose membership ended); the discount is the referrer's
 * discount per referral (a Mindbody member's: the integration's discountOnReferral, 0 while
 * unsaved, docs/product.md#constants; a Stripe-billed member's: the Stripe integration's). price-parity.integration-spec.ts keeps both sides equal.
 * With no referring member (`alias` a LEFT JOIN's NULL row: a friend of the business's own join
 * page), both are the business's defaults, as `approvalPrefill(null, defaults)`.
 * The business's values (default price and discount, the Mindbody and Stripe discounts) are read
 * by `businessId` once per statement (InitPlans), not per row.
 * @param businessId SQL of the business's id (e.g. `$1`); `alias` is a member of it
 * @param billed a boolean SQL expression that is `stripeBilled(alias)`, e.g. from a join a list
 *   statement made once; by default `stripeBilled(alias)` itself
 */
export const approvalPrefillColumns = (
  alias: string,
  businessId: string,
  billed = stripeBilled(alias),
): string => {
  const defaultPrice = `(SELECT default_membership_price_cents FROM businesses WHERE id = ${businessId})`;
  const defaultDiscount = `(SELECT default_discount_cents FROM businesses WHERE id = ${businessId})`;
  const mindbodyDiscount = `(SELECT discount_on_referral_cents FROM mindbody_integrations WHERE business_id = ${businessId})`;
  const stripeDiscount = `(SELECT discount_on_referral_cents FROM stripe_member_integrations WHERE business_id = ${businessId})`;
  return `CASE WHEN ${alias}.id IS NULL THEN ${defaultPrice}
    WHEN ${alias}.mindbody_client_id IS NOT NULL AND (${alias}.mindbody_cancelled_at IS NOT NULL
      OR ${alias}.mindbody_priced_at IS NULL OR ${alias}.mindbody_autopay_cents IS NULL)
    THEN ${defaultPrice} ELSE ${alias}.membership_price_cents END AS prefill_price_cents,
  CASE WHEN ${alias}.id IS NULL THEN ${defaultDiscount}
    WHEN ${alias}.mindbody_client_id IS NOT NULL THEN COALESCE(${mindbodyDiscount}, 0)
    WHEN ${billed} THEN COALESCE(${stripeDiscount}, 0)
    ELSE ${alias}.discount_cents END AS prefill_discount_cents`;
};
