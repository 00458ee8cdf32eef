import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { BusinessScope } from '../../../platform/database/business-scope';
import { LifecycleService } from '../../../membership/lifecycle/lifecycle.service';
import { MembershipEvents } from '../../../membership/events/membership-events';
import type { EndedBranch } from '../persistence/mindbody-members.repository';

/**
 * Tells each referrer whose branch's membership ended in Mindbody (a cancellation webhook, or a
 * sync that finds it ended) "{friend}'s membership ended: your price is back to $Y", $Y being
 * what the referrer now pays without that branch (its effective price: the autopay Grove bills,
 * docs/product.md#constants). An ended branch is detached from its referrer, so
 * `BranchQualificationService.refresh`, which tells of suspended branches, never sees it: this
 * is the one sender for ended ones. Once per branch (`MemberNotifications.branchEnded`, whose key
 * a suspension's email shares: a branch suspended, then ended, is told of once), and only when
 * the owner left that email on.
 */
@Injectable()
export class BranchLapseNotices {
  constructor(
    private readonly lifecycle: LifecycleService,
    private readonly events: MembershipEvents,
  ) {}

  /**
   * Queues the email for each ended branch whose referrer is still a member with a known price.
   * @param manager the transaction that ended the branches: prices are read and the emails queued
   *   inside it (a failure throws and rolls it back); without it, never throws
   */
  async send(
    scope: BusinessScope,
    ended: readonly EndedBranch[],
    manager?: EntityManager,
  ): Promise<void> {
    if (ended.length === 0) return;
    const referrers = [...new Set(ended.map((branch) => branch.referrerId))];
    const prices = manager
      ? await this.lifecycle.effectivePrices(scope, referrers, manager)
      : await this.lifecycle
          .effectivePrices(scope, referrers)
          .catch(() => new Map<string, number | null>());
    for (const branch of ended) {
      const priceNowCents = prices.get(branch.referrerId);
      if (priceNowCents == null) continue;
      await this.events.emit('branch.ended', {
        scope,
        branchId: branch.branchId,
        friendName: branch.branchName,
        referrerId: branch.referrerId,
        priceNowCents,
        reason: 'ended',
        manager,
      });
    }
  }
}
