import type { MemberLedgerLine } from '@grove/contracts';

/** Days in an average month (365.25 / 12): savings are prorated per day of a monthly price. */
export const DAYS_PER_MONTH = 365.25 / 12;

/**
 * Savings so far, cents (docs/decisions/member-page-savings.md): each ledger line's discount
 * (membership price − new price, both monthly, as of that line) holds from the line's time until
 * the next line (or `now`), prorated per day of an average month (365.25 / 12 days), summed and
 * rounded to the cent once. A member without ledger lines has saved 0.
 * @param ledger the member's `price_changes`, oldest first
 */
export function savedSoFarCents(ledger: readonly MemberLedgerLine[], now: Date): number {
  let saved = 0;
  for (let i = 0; i < ledger.length; i++) {
    const line = ledger[i];
    const from = Date.parse(line.occurredAt);
    const to = i + 1 < ledger.length ? Date.parse(ledger[i + 1].occurredAt) : now.getTime();
    const days = Math.max(0, to - from) / 86_400_000;
    const monthlyDiscount = Math.max(0, line.membershipPriceCents - line.newPriceCents);
    saved += (monthlyDiscount * days) / DAYS_PER_MONTH;
  }
  return Math.round(saved);
}
