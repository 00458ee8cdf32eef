import { Injectable } from '@nestjs/common';
import type { BusinessScope } from '../../database/business-scope';
import { MemberNotifications } from '../../member-notifications/member-notifications.service';
import { MembersService } from '../../members/members.service';
import type { EndedBranch } from '../persistence/mindbody-members.repository';

/**
 * Tells each referrer whose branch's membership ended in Mindbody (a cancellation webhook, or a
 * sync that finds it ended) "{friend}'s membership ended: your price is back to $Y", $Y being the
 * referrer's price without that branch as Grove now computes it (issue 15 part 2). Once per
 * branch (`MemberNotifications.branchEnded`), and only when the owner left that email on.
 */
@Injectable()
export class BranchLapseNotices {
  constructor(
    private readonly members: MembersService,
    private readonly notifications: MemberNotifications,
  ) {}

  /** Queues the email for each ended branch whose referrer is still a member; never throws. */
  async send(scope: BusinessScope, ended: readonly EndedBranch[]): Promise<void> {
    for (const branch of ended) {
      const referrer = await this.members.get(scope, branch.referrerId).catch(() => null);
      if (!referrer) continue;
      await this.notifications.branchEnded(scope, {
        branchId: branch.branchId,
        friendName: branch.branchName,
        referrerId: referrer.id,
        priceNowCents: referrer.newPriceCents,
      });
    }
  }
}
