import { LRUCache } from 'lru-cache';
import type { UpcomingCharge } from './client/gym-stripe.client';

/**
 * How long the member page reuses a member's upcoming Stripe charge (ms): 10 minutes. Stripe's
 * upcoming invoice changes when the subscription does; Grove's own writes (a discount, a welcome
 * offer, an import's price, an ending) refresh it at once (the version), a change made in the
 * gym's Stripe dashboard shows within this time (docs/decisions/member-page-stripe-charge.md).
 */
export const MEMBER_PAGE_CHARGE_TTL_MS = 10 * 60 * 1_000;

/** Members whose answer one API instance keeps (the least recently viewed go first). */
export const MEMBER_PAGE_CHARGES_KEPT = 10_000;

interface Cached {
  version: string;
  charge: Promise<UpcomingCharge | null>;
}

/**
 * The member page's upcoming Stripe charges, per member, for {@link MEMBER_PAGE_CHARGE_TTL_MS}:
 * reloading the page cannot make Grove hammer a gym's Stripe account (issue 36). An answer is
 * kept with the version of the member's subscription row it was read for (`version`: its id and
 * `updated_at`, bumped by every write Grove makes to it), so a later version asks Stripe again.
 * Views at the same time share one request; a failure is not kept (the next view asks again).
 */
export class MemberPageChargeCache {
  private readonly cache = new LRUCache<string, Cached>({
    max: MEMBER_PAGE_CHARGES_KEPT,
    ttl: MEMBER_PAGE_CHARGE_TTL_MS,
  });

  /**
   * The kept answer for `key` at `version`, else `read()`'s (kept once it answers, also a late
   * one past the caller's wait, and also "no upcoming invoice").
   * @param key the business and the member
   * @throws what `read` throws (not kept)
   */
  get(
    key: string,
    version: string,
    read: () => Promise<UpcomingCharge | null>,
  ): Promise<UpcomingCharge | null> {
    const kept = this.cache.get(key);
    if (kept && kept.version === version) return kept.charge;
    const charge = read();
    const entry = { version, charge };
    this.cache.set(key, entry);
    charge.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return charge;
  }
}
