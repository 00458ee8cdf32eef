import { newPriceCents, type MemberLedgerLine, type MemberProjection } from '@grove/contracts';

/** What a member's price depends on, as stored (cents). */
export interface MemberPriceFacts {
  membershipPriceCents: number;
  /** The member's own discount per branch (Grove-managed members). */
  discountCents: number;
  /** True for a Mindbody member: the price is the autopay Mindbody bills. */
  managed: boolean;
  /** The autopay amount Grove last saw or wrote (Mindbody members), null when not known. */
  autopayCents: number | null;
  /** The business's Mindbody discountOnReferral, null when not saved. */
  integrationDiscountCents: number | null;
  /** Branches that count: approved and not ended. */
  countingBranches: number;
}

/** A member's price now and their discount per counting branch, cents. */
export interface MemberPrice {
  /** Null for a Mindbody member whose autopay Grove has not read yet. */
  priceNowCents: number | null;
  discountPerBranchCents: number;
}

/**
 * The price a member pays now (docs/product.md#constants): max(0, membership price − discount ×
 * counting branches) for a Grove member; for a Mindbody member, the autopay amount Mindbody bills
 * (what Grove last read or wrote), with the integration's discountOnReferral per branch.
 */
export function memberPrice(facts: MemberPriceFacts): MemberPrice {
  if (facts.managed) {
    return {
      priceNowCents: facts.autopayCents,
      discountPerBranchCents: facts.integrationDiscountCents ?? 0,
    };
  }
  return {
    priceNowCents: newPriceCents(
      facts.membershipPriceCents,
      facts.discountCents,
      facts.countingBranches,
    ),
    discountPerBranchCents: facts.discountCents,
  };
}

/**
 * "N more friends → $X": the price after 1, 2, 3 more counting branches (docs/product.md#constants
 * formula, floor 0), stopping after the first that reaches 0; none when the price is 0, unknown,
 * or the discount is 0.
 */
export function projections(price: MemberPrice): MemberProjection[] {
  const { priceNowCents, discountPerBranchCents } = price;
  if (priceNowCents === null || priceNowCents === 0 || discountPerBranchCents <= 0) return [];
  const lines: MemberProjection[] = [];
  for (let friends = 1; friends <= 3; friends++) {
    const priceCents = newPriceCents(priceNowCents, discountPerBranchCents, friends);
    lines.push({ friends, priceCents });
    if (priceCents === 0) break;
  }
  return lines;
}

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
