import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  normalizeReferrerReward,
  rewardedBranches,
  rewardPriceRule,
  rewardsLeft,
  rewardsLeftWording,
  type ReferrerReward,
  type RewardPriceRule,
} from '@grove/contracts';
import { AuditLog } from '../../platform/audit/audit-log';
import type { BusinessScope } from '../../platform/database/business-scope';
import { LifecycleService } from '../lifecycle/lifecycle.service';
import { ReferrerRewardRepository } from './referrer-reward.repository';

/** How the setting is named in the audit log. */
export const REFERRER_REWARD_SETTING = 'Reward for referrers';

/**
 * The referrer's reward and its cap (issue 33 item 2, docs/product.md#referrer-reward): the
 * business's setting, and the price rule's part of it for other modules. Every method takes the
 * session's `BusinessScope`.
 */
@Injectable()
export class ReferrerRewardService {
  constructor(
    private readonly rewards: ReferrerRewardRepository,
    private readonly lifecycle: LifecycleService,
    private readonly audit: AuditLog,
  ) {}

  /** The business's reward (`DEFAULT_REFERRER_REWARD` until the owner sets one). */
  get(scope: BusinessScope): Promise<ReferrerReward> {
    return this.rewards.get(scope);
  }

  /** The price rule's part of the business's reward (`rewardPriceRule`). */
  async priceRule(scope: BusinessScope): Promise<RewardPriceRule> {
    return rewardPriceRule(await this.rewards.get(scope));
  }

  /**
   * What member `memberId` has left under the business's most friends rewarded a year, in the
   * member's words (`rewardsLeftWording`, docs/product.md#referrer-reward): '2 of 3 rewards left
   * this year' for a one-off reward (the rewards owed this year in the business's time zone, not
   * the capped ones), '2 of 3 friends left who lower your price' for the ongoing discount (the
   * counting branches it rewards, `rewardedBranches`). Null without a cap, for a Mindbody member
   * (their price follows the Mindbody discounts, whatever the reward) and for a member not the
   * business's. The one source of the member page's line and the referrer emails' (issue 33 item 2).
   */
  async rewardsLeft(scope: BusinessScope, memberId: string): Promise<string | null> {
    const facts = await this.rewards.rewardsLeftFacts(scope, memberId);
    const most = facts?.rule.maxBranches;
    if (!facts || facts.managed || most === null || most === undefined) return null;
    const rewarded =
      facts.kind === 'discount'
        ? rewardedBranches(facts.countingBranches, facts.rule)
        : facts.rewardedThisYear;
    const left = rewardsLeft(most, rewarded);
    return left && rewardsLeftWording(left, facts.kind);
  }

  /**
   * Saves a validated reward, keeping only its kind's fields, in ONE transaction with its audit
   * entry ('settings.changed', only the fields that moved) and a ledger line ('reward_changed')
   * for every member whose price it moves (a new cap, or the ongoing discount switched on or off).
   * @returns the reward as stored
   */
  save(scope: BusinessScope, input: ReferrerReward): Promise<ReferrerReward> {
    const reward = normalizeReferrerReward(input);
    const cause = `reward:${randomUUID()}`;
    return this.audit.changeSetting(
      scope,
      REFERRER_REWARD_SETTING,
      (manager) => this.rewards.get(scope, manager),
      async (manager) => {
        const saved = await this.rewards.save(scope, manager, reward);
        await this.lifecycle.recordEffectivePrices(
          scope,
          saved.memberIds,
          { reason: 'reward_changed', cause },
          manager,
        );
        return saved.reward;
      },
    );
  }
}
