import { Injectable, Logger } from '@nestjs/common';
import { validateReferredBy } from '@grove/contracts';
import { errorMessage } from '../../../platform/common/error-message';
import { GroveException } from '../../../platform/common/grove.exception';
import type { BusinessScope } from '../../../platform/database/business-scope';
import { MembersService } from '../../../membership/members/members.service';
import type { GymSubscription } from '../client/gym-stripe.client';
import { StripeMembersRepository } from '../persistence/stripe-members.repository';

/**
 * The referrer a Stripe import names (issue 33 item 4, docs/stripe.md#import-referrer,
 * docs/decisions/stripe-import-referrer.md): Stripe's Customer has no referrer field, so Grove
 * reads `metadata.referred_by`, a key the gym may set, as the desk's "referred by": an exact match
 * on one member's email, or on the name of exactly one member, makes the new member that member's
 * branch (`MembersService.attachBranch`: its rules, audit entry, branch_added fact and the
 * referrer's new price); anything else — no match, several, or a match the rules refuse (a
 * Mindbody-managed referrer, a loop) — is kept as typed and waits in Referrals to match for the
 * owner to resolve. Only for members the import adds: a member already in Grove keeps its
 * referrer, and a dismissed note is not brought back by the next import.
 */
@Injectable()
export class StripeImportReferrers {
  private readonly logger = new Logger(StripeImportReferrers.name);

  constructor(
    private readonly repository: StripeMembersRepository,
    private readonly members: MembersService,
  ) {}

  /**
   * Resolves the referrers of one imported page's added members (`added`, from `importPage`).
   * A note that breaks the note rule (`validateReferredBy`: plain text, at most 100 characters)
   * is left out and logged.
   */
  async resolve(
    scope: BusinessScope,
    page: readonly GymSubscription[],
    added: readonly { memberId: string; customerId: string }[],
  ): Promise<void> {
    const named = new Map(
      page.filter((sub) => sub.referredBy).map((sub) => [sub.customerId, sub.referredBy as string]),
    );
    for (const { memberId, customerId } of added) {
      const text = named.get(customerId);
      if (!text) continue;
      const candidates = await this.repository.referrerCandidates(scope, memberId, text);
      if (candidates.length === 1 && (await this.attach(scope, candidates[0] as string, memberId)))
        continue;
      if (Object.keys(validateReferredBy({ referredByNote: text })).length > 0) {
        this.logger.warn(`Stripe customer ${customerId}: metadata.referred_by is not a note`);
        continue;
      }
      await this.repository.keepReferredByNote(scope, memberId, text);
    }
  }

  /** Makes `branchId` a branch of `treeId`; false when the rules refuse it (then it waits). */
  private async attach(scope: BusinessScope, treeId: string, branchId: string): Promise<boolean> {
    try {
      await this.members.attachBranch(scope, treeId, branchId);
      return true;
    } catch (error) {
      if (!(error instanceof GroveException)) throw error;
      this.logger.log(`Stripe import referrer refused (${errorMessage(error)}): kept as a note`);
      return false;
    }
  }
}
