/**
 * The one SQL statement of "this branch lowers its referrer's price now"
 * (docs/product.md#branch-qualification): the member is a branch, its qualification rule has
 * started it counting, and its Mindbody membership is neither ended nor suspended.
 *
 * @param alias the `members` row alias of the branch (e.g. 'b')
 * @returns a boolean SQL expression, to AND into a WHERE or to use in a CASE
 */
export function countingBranch(alias: string): string {
  return `(${alias}.referred_by_id IS NOT NULL AND ${alias}.branch_counting_since IS NOT NULL
    AND ${alias}.mindbody_cancelled_at IS NULL AND ${alias}.mindbody_suspended_at IS NULL)`;
}

/**
 * SQL: the columns a member's status is made of (`StatusFacts` of `members/member-row.ts`), on
 * `members` row `alias`: `<prefix>counting` (`countingBranch`), `<prefix>ended` (its Mindbody
 * membership has ended) and `<prefix>suspended` (it is suspended), all booleans.
 */
export function branchStateColumns(alias: string, prefix = ''): string {
  return `${countingBranch(alias)} AS ${prefix}counting, ${alias}.mindbody_cancelled_at IS NOT NULL AS ${prefix}ended,
    ${alias}.mindbody_suspended_at IS NOT NULL AS ${prefix}suspended`;
}
