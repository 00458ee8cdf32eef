import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RewardsOwedRepository } from '../../../membership/rewards-owed/rewards-owed.repository';
import type { BusinessScope } from '../../../platform/database/business-scope';
import { MindbodyCrypto } from '../../mindbody/persistence/mindbody-crypto';
import { GymStripeClient } from '../client/gym-stripe.client';
import { StripeMembersRepository } from '../persistence/stripe-members.repository';
import {
  StripeNotConnectedException,
  StripeSyncConfirmRequiredException,
  StripeSyncPreviewStaleException,
} from '../stripe-members.exceptions';

/** One credit Stripe would write: an owed one-off reward of a referrer billed on the gym's Stripe. */
export interface PlannedCredit {
  rewardId: string;
  referrerName: string;
  branchName: string;
  /** What the referrer is credited, integer cents in `currency`. */
  amountCents: number;
  /** ISO 4217, upper case: the business's, which the referrer's subscription is in. */
  currency: string;
}

/** The credits' fingerprint: what the owner confirmed (32 hex digits). */
export function creditsFingerprint(credits: readonly PlannedCredit[]): string {
  const lines = credits.map((credit) => `${credit.rewardId}:${credit.amountCents}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 32);
}

/**
 * A referrer's one-off credit written to the gym's Stripe (issue 33 item 2,
 * docs/decisions/referrer-reward.md, docs/stripe.md#member-billing), previewed and confirmed as
 * the sync is (issue 25's rule): the preview lists the owed credits Stripe can take (reward kind
 * `credit`, not capped, not honoured, not credited yet, the referrer's subscription running in the
 * business's currency) with their fingerprint; the confirmation writes exactly those, one
 * customer-balance transaction per counting branch (`POST /v1/customers/{id}/balance_transactions`,
 * a negative amount is a credit) with `Idempotency-Key: grove-credit-<owed reward id>`, and
 * records each as it succeeds (credited and honoured), so none is written twice.
 */
@Injectable()
export class StripeCredits {
  constructor(
    private readonly rewards: RewardsOwedRepository,
    private readonly repository: StripeMembersRepository,
    private readonly stripe: GymStripeClient,
    private readonly crypto: MindbodyCrypto,
  ) {}

  /**
   * The credits a confirmation would write, from stored data (no Stripe call).
   * @throws StripeNotConnectedException 409
   */
  async preview(
    scope: BusinessScope,
  ): Promise<{ items: PlannedCredit[]; totalCents: number; fingerprint: string }> {
    await this.apiKey(scope);
    const items = await this.planned(scope);
    return {
      items,
      totalCents: items.reduce((sum, credit) => sum + credit.amountCents, 0),
      fingerprint: creditsFingerprint(items),
    };
  }

  /**
   * Writes the previewed credits whose fingerprint is `confirm`, and nothing else.
   * @returns how many were written
   * @throws StripeNotConnectedException 409, StripeSyncConfirmRequiredException 400 without
   *   `confirm`, StripeSyncPreviewStaleException 409 when the credits are no longer the preview's
   *   (nothing written), the client's (a missing Customers Write permission: 400 naming it)
   */
  async confirm(scope: BusinessScope, confirm: string | undefined): Promise<{ credited: number }> {
    const apiKey = await this.apiKey(scope);
    const planned = await this.planned(scope);
    if (!confirm) throw new StripeSyncConfirmRequiredException();
    if (creditsFingerprint(planned) !== confirm) throw new StripeSyncPreviewStaleException();
    const customers = new Map(
      (await this.rewards.creditsForStripe(scope, await this.currency(scope))).map((row) => [
        row.id,
        row.customerId,
      ]),
    );
    let credited = 0;
    for (const credit of planned) {
      const customerId = customers.get(credit.rewardId);
      if (!customerId) continue;
      const transactionId = await this.stripe.creditBalance(
        apiKey,
        customerId,
        {
          amountCents: credit.amountCents,
          currency: credit.currency.toLowerCase(),
          description: `Referral credit: ${credit.branchName}`,
        },
        `grove-credit-${credit.rewardId}`,
      );
      await this.rewards.recordStripeCredit(scope, credit.rewardId, transactionId);
      credited += 1;
    }
    return { credited };
  }

  private async planned(scope: BusinessScope): Promise<PlannedCredit[]> {
    const currency = await this.currency(scope);
    return (await this.rewards.creditsForStripe(scope, currency)).map((row) => ({
      rewardId: row.id,
      referrerName: row.referrerName,
      branchName: row.branchName,
      amountCents: row.amountCents,
      currency,
    }));
  }

  private async currency(scope: BusinessScope): Promise<string> {
    return (await this.rewards.locale(scope)).currency;
  }

  /** The business's key, opened. @throws StripeNotConnectedException 409 */
  private async apiKey(scope: BusinessScope): Promise<string> {
    const integration = await this.repository.integration(scope);
    if (!integration) throw new StripeNotConnectedException();
    return this.crypto.open(integration.apiKeySealed);
  }
}
