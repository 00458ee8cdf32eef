import { setTimeout as delay } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import type { BusinessScope } from '../../platform/database/business-scope';

/** What a member's billing service will charge next: cents, its currency and when. */
export interface MemberUpcomingCharge {
  /** Integer cents of `currency`. */
  amountCents: number;
  /** ISO 4217, any case (Stripe's lower case). */
  currency: string;
  /** When it will be charged. */
  at: Date;
}

/**
 * Reads a member's upcoming charge from their billing service, or null when it has none.
 * `timeoutMs` is the caller's budget: the source should give up on its own within it.
 */
export type MemberUpcomingChargeSource = (
  scope: BusinessScope,
  memberId: string,
  timeoutMs: number,
) => Promise<MemberUpcomingCharge | null>;

/**
 * How long the member page waits for a billing service's upcoming charge (ms). Past it the page is
 * rendered without the line (docs/decisions/member-page-stripe-charge.md).
 */
export const MEMBER_PAGE_CHARGE_BUDGET_MS = 1_500;

/**
 * The member page's source of "Stripe will charge $X on <date>" (issue 32): member/ cannot call
 * integrations/ (docs/architecture.md#api-areas), so the Stripe member billing registers its
 * reader here in its `onModuleInit`, as membership's role-limit checks register themselves.
 */
@Injectable()
export class MemberNextCharges {
  private readonly logger = new Logger(MemberNextCharges.name);
  private source: MemberUpcomingChargeSource | null = null;

  /** Registers (or replaces) the reader of upcoming charges. */
  register(source: MemberUpcomingChargeSource): void {
    this.source = source;
  }

  /**
   * The member's upcoming charge, or null: none registered, none upcoming, the source failed, or
   * it did not answer within `budgetMs` (the page never waits longer; a late answer is dropped).
   * Never throws.
   * @param budgetMs the longest wait, ms (default `MEMBER_PAGE_CHARGE_BUDGET_MS`)
   */
  async upcoming(
    scope: BusinessScope,
    memberId: string,
    budgetMs = MEMBER_PAGE_CHARGE_BUDGET_MS,
  ): Promise<MemberUpcomingCharge | null> {
    if (!this.source) return null;
    const timer = new AbortController();
    try {
      return await Promise.race([
        this.source(scope, memberId, budgetMs),
        delay(budgetMs, null, { signal: timer.signal, ref: false }),
      ]);
    } catch (error) {
      this.logger.warn(
        `Upcoming charge not read for the member page: ${error instanceof Error ? error.message : String(error)}`,
      );
      return null;
    } finally {
      timer.abort();
    }
  }
}
