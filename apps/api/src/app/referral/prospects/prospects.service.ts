import { Injectable, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import {
  approvalPrefill,
  type FlaggedJoinRow,
  type JoinFlagReason,
  type MemberRow,
  type Page,
  type ProspectRow,
} from '@grove/contracts';
import type { MemberFieldsDto } from '../../membership/members/dto/create-member.dto';
import type { ApproveProspectDto } from './dto/approve-prospect.dto';
import { DEFAULT_PAGE_SIZE } from '../../platform/common/page-query.dto';
import { jobScope, type BusinessScope } from '../../platform/database/business-scope';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MembersService } from '../../membership/members/members.service';
import { MembershipEvents } from '../../membership/events/membership-events';
import { WelcomeOfferService } from '../welcome-offer/welcome-offer.service';
import { priceBeforeNewestBranchCents } from '../../membership/pricing/price';
import { ReferrerRewardService } from '../../membership/referrer-reward/referrer-reward.service';
import { LifecycleService } from '../../membership/lifecycle/lifecycle.service';
import { MemberDefaultsRepository } from '../../membership/member-defaults/member-defaults.repository';
import type { ListProspectsQueryDto } from './dto/list-prospects-query.dto';
import type { ProspectEntity } from './prospect.entity';
import { JoinFlagsRepository, type JoinFlagSummary } from './join-flags.repository';
import {
  JoinFlagNotFoundException,
  ProspectManagedException,
  ProspectNotFoundException,
} from './prospects.exceptions';
import { ProspectsRepository } from './prospects.repository';
import { ProspectSettingsRepository } from './prospect-settings.repository';
import { BillingGate } from '../../platform/billing/billing-gate';
import { AuditLog } from '../../platform/audit/audit-log';

/**
 * The pg-boss queue of what a join through a referral link sets off ("{friend} joined with your
 * link", automatic approval), queued in the join's own transaction (`ReferralsService.join`).
 */
export const JOIN_FOLLOW_UP_QUEUE = 'referral.joined';

/** Data of a `referral.joined` job: the join's business and prospect (null: a flagged join). */
export interface JoinFollowUpJob {
  businessId: string;
  prospectId: string | null;
  /** Automatic approval was on when the friend joined (a later follow-up honours the join's time). */
  autoApprove: boolean;
}

/** One flagged join of the Prospective Members screen. */
function toFlaggedJoinRow(flag: JoinFlagSummary): FlaggedJoinRow {
  return {
    id: flag.id,
    name: flag.name,
    email: flag.email,
    referringMemberId: flag.referringMemberId,
    referringMemberName: flag.referringMemberName,
    reasons: flag.reasons as JoinFlagReason[],
    attempts: flag.attempts,
    createdAt: flag.createdAt.toISOString(),
    lastAttemptAt: flag.lastAttemptAt.toISOString(),
  };
}

/**
 * Prospective members of one business (docs/product.md#prospective-members, docs/product.md#states): list, remove, approve. The `BusinessScope`
 * always comes from the session (`sessionScope`); every read and write goes through `ProspectsRepository`.
 */
@Injectable()
export class ProspectsService implements OnModuleInit {
  constructor(
    private readonly prospects: ProspectsRepository,
    private readonly flags: JoinFlagsRepository,
    private readonly members: MembersService,
    private readonly events: MembershipEvents,
    private readonly settings: ProspectSettingsRepository,
    private readonly lifecycle: LifecycleService,
    private readonly jobs: JobsService,
    private readonly defaults: MemberDefaultsRepository,
    private readonly billing: BillingGate,
    private readonly welcomeOffers: WelcomeOfferService,
    private readonly audit: AuditLog,
    private readonly rewards: ReferrerRewardService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<JoinFollowUpJob>(
      { name: JOIN_FOLLOW_UP_QUEUE, retryLimit: 5, retryDelay: 5, retryBackoff: true },
      (job) => this.followUpJoin(jobScope(job), job.prospectId, job.autoApprove),
    );
  }

  /**
   * What a join through a referral link sets off, as its `referral.joined` job (queued in the
   * join's transaction, so it exists exactly when the join was committed, and is handled by
   * whichever API instance is up, even if the one that took the join died right after): "{friend}
   * joined with your link" to the referrer (`MemberNotifications.friendJoined`, once per prospect
   * by its event key), then, when automatic approval was on at the join (`autoApproveAtJoin`) and
   * still is, and the join raised no fraud signal, the approval ({@link autoApprove}, once: it
   * needs the prospect). A prospect
   * already approved or removed sets off nothing; so does a flagged join (`prospectId` null).
   * Safe to run twice (a retry after a crash half-way).
   * @throws when queueing the email fails (the job is retried)
   */
  async followUpJoin(
    scope: BusinessScope,
    prospectId: string | null,
    autoApproveAtJoin: boolean,
  ): Promise<void> {
    if (!prospectId) return;
    const prospect = await this.prospects.findOne(scope, prospectId);
    // A friend of the business's join page has no referrer to tell (its join queues no job).
    if (!prospect?.referringMemberId) return;
    const referrer = await this.members.get(scope, prospect.referringMemberId);
    await this.events.emit('friend.joined', {
      scope,
      prospectId,
      referrerId: referrer.id,
      friendName: prospect.name,
      discountPerBranchCents: referrer.discountCents,
    });
    if (autoApproveAtJoin) await this.autoApprove(scope, prospect, referrer);
  }

  /**
   * → `Page<ProspectRow>`, oldest first, 50 per page by default, each row with what its approval
   * starts from (`approvalPrefill`, docs/product.md#member-defaults: the referrer's membership price
   * and discount per referral, else the business's defaults), computed in SQL by the page's one
   * statement (`ProspectsRepository.findPage`; a second one only for a page past the end).
   */
  async list(scope: BusinessScope, query: ListProspectsQueryDto): Promise<Page<ProspectRow>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const { rows, total } = await this.prospects.findPage(scope, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
    });
    return {
      items: rows,
      total,
      page,
      pageSize,
    };
  }

  /**
   * Open flagged joins (issue 11): joins through a referral link that were answered like any
   * other but not queued, because the email belongs to a member of this business or is the
   * referrer's own. → `Page<FlaggedJoinRow>`, oldest first, 50 per page by default.
   */
  async listFlags(
    scope: BusinessScope,
    query: ListProspectsQueryDto,
  ): Promise<Page<FlaggedJoinRow>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const { rows, total } = await this.flags.findOpenPage(scope, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
    });
    return { items: rows.map(toFlaggedJoinRow), total, page, pageSize };
  }

  /**
   * Dismisses a flagged join: it leaves the list (kept as history); a later attempt flags again.
   * @throws JoinFlagNotFoundException 404 (unknown, another business's, or already dismissed)
   */
  async dismissFlag(scope: BusinessScope, id: string): Promise<void> {
    if (!isUUID(id) || !(await this.flags.dismiss(scope, id)))
      throw new JoinFlagNotFoundException();
  }

  /**
   * Removes a prospective member (docs/product.md#prospective-members 'Remove', docs/product.md#states 'removed'), in one transaction: locks the
   * prospect, refuses it when an integration manages it (docs/product.md#prospective-members: such rows show only 'Managed by
   * {integration}'; docs/product.md#roles: integration-managed records are not removed by hand), deletes it.
   * A refused prospect is left unchanged and still listed. Records prospect_removed
   * (docs/architecture.md#lifecycle-facts).
   * @throws ProspectNotFoundException 404 (unknown, other business, already removed or approved)
   * @throws ProspectManagedException 409 when an integration (Mindbody) manages the prospect
   */
  async remove(scope: BusinessScope, id: string): Promise<void> {
    await this.prospects.transaction(async (manager) => {
      const prospect = await this.lockEditable(scope, manager, id);
      await this.prospects.delete(scope, manager, prospect.id, { kind: 'removed' });
      await this.audit.record(scope, manager, {
        kind: 'prospect.removed',
        before: { name: prospect.name, email: prospect.email },
      });
      await this.lifecycle.recordFacts(
        scope,
        [
          {
            kind: 'prospect_removed',
            eventKey: `prospect_removed:${prospect.id}`,
            prospectId: prospect.id,
            referrerId: prospect.referringMemberId,
            source: 'manual',
          },
        ],
        manager,
      );
    });
  }

  /**
   * Approves a prospective member (docs/product.md#prospective-members 'Approve' → add-branch form), in ONE transaction: locks
   * the prospect, creates the new tree from the (possibly edited) form as a branch of the
   * referring member (the same rules as `POST /api/members/:id/branches`), deletes the prospect.
   * A friend of the business's own join page (no referring member, issue 33 item 4) becomes a
   * tree referred by no one, its "Who referred you?" kept as the member's referred-by note: it
   * waits in Referrals to match (docs/product.md#business-join).
   * A second approval finds no prospect (404) and creates nothing. In the same transaction, each
   * if the owner left it on, it queues "{friend} is now your branch: your price is now $X" to the
   * referrer (only if the branch counts at once under the business's rule,
   * docs/product.md#branch-qualification; else `BranchQualificationService.refresh` sends it when
   * it starts) and a welcome to the friend (`MemberNotifications.branchApproved`, once per
   * branch): a failure to queue them rolls the approval back (a 5xx, nothing changed;
   * docs/decisions/side-effects-in-the-transaction.md). A prospect managed by an
   * integration is refused and left unchanged (docs/product.md#screens 'Managed by {integration}', docs/product.md#roles).
   * Records prospect_approved, the new member's member_added and branch_added (source
   * 'approval') and both ledgers' lines, in the same transaction (docs/architecture.md#lifecycle-facts),
   * and the business's welcome offer granted to the friend as it is then
   * (`WelcomeOfferService.grantAtApproval`, docs/product.md#welcome-offer), which the welcome states.
   * With `addToMindbody` (the owner's choice in the dialog, issue 33 item 4), announces
   * 'member.mindbody-client-requested' in the same transaction: the Mindbody integration queues
   * the job that adds (or links) the friend's Mindbody client, and refuses when Mindbody is not
   * connected (the approval then rolls back).
   * The welcome offer is written to the gym's Stripe (a coupon on the friend's subscription) only
   * when a person approved (`byStaff`, the dialog states it): an automatic approval lists it to
   * honour instead.
   * @param byStaff false for an automatic approval (`autoApprove`)
   * @returns 201 row of the new member
   * @throws ProspectNotFoundException 404 (unknown, other business, already approved)
   * @throws ProspectManagedException 409 when an integration (Mindbody) manages the prospect (one an
   *   earlier import queued; a friend who joined through a managed member's link is not managed)
   * @throws MemberNotFoundException 404, DuplicateMemberException 409
   * @throws BillingPausedException 402 while Grove is paused for an unpaid bill (docs/product.md#billing); an automatic approval then leaves the prospect waiting
   * @throws MindbodyAddNotConnectedException 409 (from the integration's listener) with
   *   `addToMindbody` when the business's Mindbody is not connected and imported
   */
  async approve(
    scope: BusinessScope,
    id: string,
    input: ApproveProspectDto,
    byStaff = true,
  ): Promise<MemberRow> {
    await this.billing.assertOpen(scope);
    const rule = await this.rewards.priceRule(scope);
    return this.prospects.transaction(async (manager) => {
      const prospect = await this.lockEditable(scope, manager, id);
      // A friend of the business's join page becomes a tree; "Who referred you?" waits in
      // Referrals to match (issue 33 item 4).
      const newId = prospect.referringMemberId
        ? await this.members.addBranchIn(
            scope,
            manager,
            prospect.referringMemberId,
            input,
            'approval',
          )
        : await this.members.addTreeIn(scope, manager, input, 'approval', prospect.referredByNote);
      await this.prospects.delete(scope, manager, prospect.id, {
        kind: 'approved',
        memberId: newId,
      });
      await this.audit.record(scope, manager, {
        kind: 'prospect.approved',
        member: { id: newId, name: input.memberName },
        before: { name: prospect.name, email: prospect.email },
        after: {
          membershipPriceCents: input.membershipPriceCents,
          discountCents: input.discountCents,
        },
      });
      await this.lifecycle.recordFacts(
        scope,
        [
          {
            kind: 'prospect_approved',
            eventKey: `prospect_approved:${prospect.id}`,
            prospectId: prospect.id,
            memberId: newId,
            referrerId: prospect.referringMemberId,
            source: 'approval',
          },
        ],
        manager,
      );
      if (input.addToMindbody === true)
        await this.events.emit('member.mindbody-client-requested', {
          scope,
          manager,
          memberId: newId,
        });
      // The friend's welcome offer as it is now (docs/product.md#welcome-offer), kept on the member.
      const welcomeOffer = await this.welcomeOffers.grantAtApproval(scope, manager, newId, byStaff);
      const created = await this.members.get(scope, newId, manager);
      if (created.referringMemberId) {
        // The emails are queued in this transaction, with the prices it wrote (issue 31 item 4).
        const referrer = await this.members.get(scope, created.referringMemberId, manager);
        await this.events.emit('branch.approved', {
          scope,
          manager,
          branchId: created.id,
          friendName: created.memberName,
          referrerId: referrer.id,
          referrerName: referrer.memberName,
          priceNowCents: referrer.newPriceCents,
          priceBeforeCents: priceBeforeNewestBranchCents({ ...referrer, rule }),
          // A branch the business's rule leaves pending is announced when it starts counting.
          counting: created.status === 'Active',
          welcomeOffer,
        });
      }
      return created;
    });
  }

  /**
   * Approves a just-queued prospect without the owner, when the business turned automatic approval
   * on (`PUT /api/settings/prospects`) and the prospect has no fraud signal and no integration: the
   * friend becomes a branch and a tree at the referrer's membership price and discount per
   * referral, else at the business's defaults (`approvalPrefill`, docs/product.md#member-defaults:
   * the same values the owner's approval form starts from), through `approve` (same transaction,
   * same emails). Anything else, or a price or discount known from neither, leaves the prospect
   * for the owner. Never throws.
   * @param prospect the prospect as the join's follow-up read it
   * @param referrer its referring member, as read with it
   */
  private async autoApprove(
    scope: BusinessScope,
    prospect: ProspectEntity,
    referrer: MemberRow,
  ): Promise<void> {
    if (prospect.source !== null || prospect.flags.length > 0) return;
    try {
      if (!(await this.settings.get(scope)).autoApprove) return;
      const prefill = approvalPrefill(referrer, await this.defaults.get(scope));
      if (prefill.membershipPriceCents === null || prefill.discountCents === null) return;
      const form: MemberFieldsDto = {
        memberName: prospect.name,
        memberEmail: prospect.email,
        membershipPriceCents: prefill.membershipPriceCents,
        discountCents: prefill.discountCents,
      };
      await this.approve(scope, prospect.id, form, false);
    } catch {
      // Gone, taken or refused meanwhile: the prospect (if any) waits for the owner.
    }
  }

  /**
   * Locks a prospect of this business that may be approved or removed by hand (the same rule as
   * members' `lockEditable`: integration-managed rows are refused, docs/product.md#screens, docs/product.md#roles).
   * @throws ProspectNotFoundException 404 when not in this business
   * @throws ProspectManagedException 409 when an integration manages it (`source` set)
   */
  private async lockEditable(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
  ): Promise<ProspectEntity> {
    const prospect = isUUID(id) ? await this.prospects.findForUpdate(scope, manager, id) : null;
    if (!prospect) throw new ProspectNotFoundException();
    if (prospect.source !== null) throw new ProspectManagedException();
    return prospect;
  }
}
