import { createHash } from 'node:crypto';
import type { MindbodyBillChange, MindbodyBillChanges } from '@grove/contracts';
import { targetAutopayCents } from '../../../membership/pricing/price';
import type { AuditWrite } from '../../../platform/audit/audit.repository';
import type { AutopayTarget } from '../persistence/mindbody-members.repository';

/** Bills per page of a preview when the query names no page size (issue 25: the first 100 and the count). */
export const BILL_CHANGES_PAGE_SIZE = 100;

/** A managed member whose Mindbody autopay a sync would write: the target and the amount to write (cents). */
export type PlannedAutopay = AutopayTarget & { amount: number };

/**
 * The autopays a sync writes, from what Grove has stored (docs/architecture.md#mindbody; the price
 * rule is `targetAutopayCents`, docs/product.md#constants): every running managed member with a
 * known autopay whose discounted price differs from what Mindbody bills. The sync's writes and
 * its preview (issue 25) both come from here, so the preview shows what the writes will do with
 * the data as it stands.
 * @param onReferralCents the integration's discountOnReferral, cents
 * @param forRefereeCents the integration's discountForReferee, cents
 */
export function plannedAutopays(
  targets: readonly AutopayTarget[],
  onReferralCents: number,
  forRefereeCents: number,
): PlannedAutopay[] {
  return targets
    .map((target) => ({
      ...target,
      amount: targetAutopayCents(target, onReferralCents, forRefereeCents),
    }))
    .filter((target) => target.amount !== target.autopayCents);
}

/**
 * A fingerprint of a set of bill changes (issue 25): the first 32 hex digits of the SHA-256 of
 * every change's member, current and new amount in member order. The same changes give the same
 * fingerprint whatever their order; any other amount, member or count gives another one.
 */
export function billChangesFingerprint(changes: readonly MindbodyBillChange[]): string {
  const lines = changes
    .map((change) => `${change.memberId}:${change.currentCents}:${change.newCents}`)
    .sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 32);
}

/** Names in the order an owner looks them up (then by member id, so the order never moves). */
const byName = (a: MindbodyBillChange, b: MindbodyBillChange): number =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
  (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0);

/**
 * One page of a preview (`MindbodyBillChanges`): the changes sorted by name, the count and
 * monthly difference (cents) of all of them, and their fingerprint.
 * @param page 1-based
 * @param unreadContracts running members whose contracts the sync reads first (0 for the removal)
 * @param waitingFriends branches waiting for their Mindbody client (0 for the removal)
 */
export function billChangesPage(
  changes: readonly MindbodyBillChange[],
  page: number,
  pageSize: number,
  unreadContracts: number,
  waitingFriends: number,
): MindbodyBillChanges {
  const sorted = [...changes].sort(byName);
  return {
    items: sorted.slice((page - 1) * pageSize, page * pageSize),
    total: sorted.length,
    page,
    pageSize,
    monthlyDifferenceCents: sorted.reduce((sum, change) => sum + change.differenceCents, 0),
    fingerprint: billChangesFingerprint(sorted),
    unreadContracts,
    waitingFriends,
  };
}

/** A bill change of a member: from `currentCents` to `newCents` (cents). */
export function billChange(
  member: { memberId: string; name: string },
  currentCents: number,
  newCents: number,
): MindbodyBillChange {
  return {
    memberId: member.memberId,
    name: member.name,
    currentCents,
    newCents,
    differenceCents: newCents - currentCents,
  };
}

/**
 * The bill changes of a set of planned autopays (issue 25's preview, issue 31's held changes):
 * each member from the autopay Mindbody bills as Grove last read or wrote it to the amount a
 * sync writes (cents).
 */
export function plannedBillChanges(planned: readonly PlannedAutopay[]): MindbodyBillChange[] {
  return planned.map((target) => billChange(target, target.autopayCents, target.amount));
}

/**
 * The audit entry of one bill Grove wrote to a member's real bill (docs/product.md#audit-log):
 * the member, who bills them, and what the bill was before → after the write (cents).
 * @param billing 'Mindbody' (the autopay) or 'Stripe' (the subscription after Grove's discount)
 */
export function billWrittenEntry(
  billing: 'Mindbody' | 'Stripe',
  bill: { memberId: string; name: string; currentCents: number; newCents: number },
): AuditWrite {
  return {
    kind: 'bill.written',
    member: { id: bill.memberId, name: bill.name },
    before: { billing, billCents: bill.currentCents },
    after: { billing, billCents: bill.newCents },
  };
}
