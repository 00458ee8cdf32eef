// Helpers of the lifecycle facts tests: read a business's facts and price ledgers, check the ledgers' chains.
import type { TestApp } from './test-app';

/** A lifecycle fact as stored. */
export interface FactRow {
  kind: string;
  member_id: string | null;
  referrer_id: string | null;
  referral_link_id: string | null;
  prospect_id: string | null;
  source: string | null;
  event_key: string;
}

/** A price ledger line as stored (cents). */
export interface LineRow {
  reason: string;
  old_price_cents: number | null;
  new_price_cents: number;
  membership_price_cents: number;
  branch_id: string | null;
}

/** Every fact of a business, oldest first. */
export async function factsOf(t: TestApp, businessId: string): Promise<FactRow[]> {
  return (await t.dataSource.query(
    `SELECT kind, member_id, referrer_id, referral_link_id, prospect_id, source, event_key
     FROM lifecycle_facts WHERE business_id = $1 ORDER BY id`,
    [businessId],
  )) as FactRow[];
}

/** A member's price ledger, in order. */
export async function ledgerOf(
  t: TestApp,
  businessId: string,
  memberId: string,
): Promise<LineRow[]> {
  return (await t.dataSource.query(
    `SELECT reason, old_price_cents, new_price_cents, membership_price_cents, branch_id
     FROM price_changes WHERE business_id = $1 AND member_id = $2 ORDER BY id`,
    [businessId, memberId],
  )) as LineRow[];
}

/**
 * Every ledger of the business is a chain: its first line has no old price and is 'member_added'
 * (or 'backfill'), each later line's old price is the line before's new price, and no line
 * repeats the price before it.
 */
export async function expectLedgersChained(t: TestApp, businessId: string): Promise<number> {
  const lines = (await t.dataSource.query(
    `SELECT member_id, reason, old_price_cents, new_price_cents FROM price_changes
     WHERE business_id = $1 ORDER BY member_id, id`,
    [businessId],
  )) as {
    member_id: string;
    reason: string;
    old_price_cents: number | null;
    new_price_cents: number;
  }[];
  lines.forEach((line, index) => {
    const before = lines[index - 1];
    if (before?.member_id !== line.member_id) {
      expect({ reason: line.reason, old: line.old_price_cents }).toEqual({
        reason: expect.stringMatching(/^(member_added|backfill)$/),
        old: null,
      });
    } else {
      expect(line.old_price_cents).toBe(before.new_price_cents);
      expect(line.new_price_cents).not.toBe(line.old_price_cents);
    }
  });
  return lines.length;
}
