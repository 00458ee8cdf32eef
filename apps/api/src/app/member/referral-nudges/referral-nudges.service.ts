import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type {
  ReferralNudgeKind,
  ReferralNudgePreview,
  ReferralNudgeSettings,
  ReferralNudgeSettingsReply,
} from '@grove/contracts';
import { errorMessage } from '../../platform/common/error-message';
import { AuditLog } from '../../platform/audit/audit-log';
import { AppConfig } from '../../platform/config/app-config';
import { jobScope, type BusinessScope } from '../../platform/database/business-scope';
import { JobsService } from '../../platform/jobs/jobs.service';
import { newPriceCents } from '../../membership/pricing/price';
import { MemberEmails } from '../member-emails/member-emails.service';
import type {
  MemberEmailData,
  ReferralNudgeEmailData,
  ReferralSummaryEmailData,
} from '../member-emails/templates';
import {
  ReferralNudgeNoExampleException,
  ReferralNudgeVisitsUnavailableException,
} from './referral-nudges.exceptions';
import { VisitSources } from './visit-source';
import {
  ReferralNudgesRepository,
  type NudgeCandidate,
  type VisitCheckCandidate,
} from './referral-nudges.repository';

/** The pg-boss queue of the scheduled nudges run (cron: REFERRAL_NUDGES_CRON). */
export const REFERRAL_NUDGES_QUEUE = 'referral-nudges.send';

/** Nudge emails per member per calendar month (UTC), the three kinds together. */
export const NUDGES_PER_MEMBER_PER_MONTH = 2;

/** Members looked at per business, per kind, per run: a run's work stays bounded. */
export const NUDGES_BATCH = 200;

/** The member email template of each nudge. */
const TEMPLATE = {
  invite: 'referral-invite',
  reminder: 'referral-reminder',
  summary: 'referral-summary',
} as const satisfies Record<ReferralNudgeKind, keyof MemberEmailData>;

const DAY_MS = 86_400_000;

/**
 * A member's visits are asked of the billing/CRM at most once per this period (ms): a week, so a
 * gym costs one GetClientVisits per watched member per week (Mindbody bills calls past a free
 * tier; docs/decisions/mindbody-visits.md).
 */
export const VISITS_RECHECK_MS = 7 * DAY_MS;

/**
 * A visit is counted once its class started at least this long (ms) before the check: a day, by
 * when Grove takes its sign-in, late-cancel and no-show marks as final
 * (docs/decisions/mindbody-visits.md). Each check counts classes in [the last check's
 * `counted_until`, now − this) and adds them to the member's stored count.
 */
export const VISIT_SETTLE_MS = DAY_MS;

/** What one run sent, per kind. */
export interface NudgeRunResult {
  invite: number;
  reminder: number;
  summary: number;
}

/** The calendar month of `now` in UTC: its first instant and its 'YYYY-MM' period. */
export function nudgeMonth(now: Date): { monthStart: Date; period: string } {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { monthStart, period: monthStart.toISOString().slice(0, 7) };
}

/**
 * The summary's figures for a Grove-managed referrer (docs/product.md#referral-nudges), cents,
 * by the price rule of `membership/pricing` (`newPriceCents`, floor 0, the business's cap): saved this month =
 * membership price − price now; one more friend = the price with one more counting branch.
 */
export function summaryFigures(member: NudgeCandidate): ReferralSummaryEmailData {
  const priceNowCents = newPriceCents(
    member.membershipPriceCents,
    member.discountCents,
    member.countingBranches,
    0,
    member.rule,
  );
  return {
    countingBranches: member.countingBranches,
    savedThisMonthCents: member.membershipPriceCents - priceNowCents,
    priceNowCents,
    priceWithOneMoreCents: newPriceCents(
      member.membershipPriceCents,
      member.discountCents,
      member.countingBranches + 1,
      0,
      member.rule,
    ),
  };
}

/**
 * The invitation's and reminder's data: whole days since joining, the discount per branch, and
 * for the invitation after the Nth visit, N.
 */
function nudgeData(
  member: NudgeCandidate,
  now: Date,
  visits: number | null = null,
): ReferralNudgeEmailData {
  return {
    daysAsMember: Math.max(0, Math.floor((now.getTime() - member.joinedAt.getTime()) / DAY_MS)),
    discountPerBranchCents: member.discountCents,
    ...(visits !== null ? { visits } : {}),
  };
}

/**
 * Asked at the right moment (issue 33 item 5, docs/product.md#referral-nudges,
 * docs/decisions/referral-nudges.md). The owner's settings, their previews, and the scheduled
 * run (`REFERRAL_NUDGES_QUEUE`, REFERRAL_NUDGES_CRON, hourly by default; pg-boss runs a schedule
 * on one instance) that, per business with a nudge on, sends through `MemberEmails` (the
 * `member_emails` row, its delivery job, List-Unsubscribe):
 * - the invitation to a member `inviteAfterDays` after they joined (`members.created_at`), once;
 *   or, where Mindbody tells visits, to a Mindbody member once Mindbody counts `inviteAfterVisits`
 *   visits (`VisitSources`; each member asked at most once a week, least recently asked first,
 *   only for the visits since its last check, added to its stored count);
 * - the reminder `reminderAfterDays` after the invitation, once, to a member who has since opened
 *   neither their member page nor their referral link;
 * - the summary once per calendar month (UTC) to each referrer with a counting branch.
 * Only members with an email address, managed by Grove (a Mindbody member's price is Mindbody's;
 * the invitation after visits goes to Mindbody members, the reminder follows either), not unsubscribed, and with fewer than {@link NUDGES_PER_MEMBER_PER_MONTH} nudges this month.
 * Each send writes its `referral_nudges` row (unique per member, kind and period) in the same
 * transaction as the email, under the member's lock: a rerun or a second replica sends nothing
 * twice. At most {@link NUDGES_BATCH} members per business and kind per run; the rest go next run.
 */
@Injectable()
export class ReferralNudgesService implements OnModuleInit {
  private readonly logger = new Logger(ReferralNudgesService.name);

  constructor(
    private readonly repository: ReferralNudgesRepository,
    private readonly emails: MemberEmails,
    private readonly jobs: JobsService,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
    private readonly visitSources: VisitSources,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<object>(
      { name: REFERRAL_NUDGES_QUEUE, policy: 'singleton', retryLimit: 1 },
      async (_data, _job, stopping) => {
        await this.runAll(new Date(), stopping);
      },
    );
    await this.jobs.schedule(REFERRAL_NUDGES_QUEUE, this.config.referralNudges.cron);
  }

  /**
   * The business's settings (every nudge off until switched on), and whether its billing/CRM
   * tells visits (Mindbody connected, members imported).
   */
  async settings(scope: BusinessScope): Promise<ReferralNudgeSettingsReply> {
    const [settings, visits] = await Promise.all([
      this.repository.settings(scope),
      this.visitsReply(scope),
    ]);
    return { ...settings, ...visits };
  }

  /**
   * Whether the business's billing/CRM tells visits, and what the invitation after the Nth visit
   * costs there: its weekly checks (one Mindbody call per watched member a week) and its Mindbody
   * members; 0 and 0 where visits are not told.
   */
  private async visitsReply(
    scope: BusinessScope,
  ): Promise<
    Pick<ReferralNudgeSettingsReply, 'visitsAvailable' | 'visitChecksPerWeek' | 'mindbodyMembers'>
  > {
    const visitsAvailable = await this.visitSources.tellsVisits(scope);
    if (!visitsAvailable) return { visitsAvailable, visitChecksPerWeek: 0, mindbodyMembers: 0 };
    const load = await this.repository.visitCheckLoad(scope);
    return {
      visitsAvailable,
      visitChecksPerWeek: load.checkedMembers,
      mindbodyMembers: load.mindbodyMembers,
    };
  }

  /**
   * Saves the (already valid: `validateReferralNudgeSettings`) settings and records the change in
   * the audit log ('Asking members to refer', docs/product.md#audit-log) in one transaction.
   * @returns them as stored, with `visitsAvailable` and the weekly checks' cost
   * @throws ReferralNudgeVisitsUnavailableException 400 `inviteAfterVisits` at a business whose
   *   billing/CRM does not tell visits (nothing saved)
   */
  async saveSettings(
    scope: BusinessScope,
    settings: ReferralNudgeSettings,
  ): Promise<ReferralNudgeSettingsReply> {
    const visits = await this.visitsReply(scope);
    if ((settings.inviteAfterVisits ?? null) !== null && !visits.visitsAvailable)
      throw new ReferralNudgeVisitsUnavailableException();
    const saved = await this.audit.changeSetting(
      scope,
      'Asking members to refer',
      (manager) => this.repository.settings(scope, manager),
      (manager) => this.repository.saveSettings(scope, manager, settings),
    );
    return { ...saved, ...visits };
  }

  /**
   * Renders one nudge as a real member of the business would get it (`MemberEmails.example`:
   * the template the run uses; nothing queued, no token issued): the first member by name with
   * an email, preferring one with a live link and, for the summary, a counting branch. A member
   * without counting branches previews the summary with one (the figures of their own price).
   * With `visits`, the invitation after that visit, rendered for a Mindbody member.
   * @throws ReferralNudgeNoExampleException 404 no member of the business (of that kind) has an
   *   email address
   */
  async preview(
    scope: BusinessScope,
    kind: ReferralNudgeKind,
    now: Date = new Date(),
    visits: number | null = null,
  ): Promise<ReferralNudgePreview> {
    const afterVisits = kind === 'invite' ? visits : null;
    const member = await this.repository.exampleMember(
      scope,
      kind,
      afterVisits !== null ? 'mindbody' : 'grove',
    );
    if (!member) throw new ReferralNudgeNoExampleException();
    const context = {
      businessName: member.businessName,
      businessLocale: member.businessLocale,
      memberName: member.name,
      referralCode: member.referralCode,
      shareMessage: member.shareMessage,
      welcomeOffer: member.welcomeOffer,
      referrerReward: member.referrerReward,
    };
    const rendered =
      kind === 'summary'
        ? await this.emails.example(
            'referral-summary',
            summaryFigures({
              ...member,
              countingBranches: Math.max(1, member.countingBranches),
            }),
            context,
          )
        : await this.emails.example(TEMPLATE[kind], nudgeData(member, now, afterVisits), context);
    return { kind, memberName: member.name, ...rendered };
  }

  /**
   * One run over every business with a nudge on, as of `now` (the scheduled job; a test passes
   * its own clock). A business that fails is logged and the others go on.
   * @returns what was queued, per kind, over all businesses
   */
  async runAll(now: Date = new Date(), stopping?: AbortSignal): Promise<NudgeRunResult> {
    const total: NudgeRunResult = { invite: 0, reminder: 0, summary: 0 };
    for (const { businessId, settings } of await this.repository.businessesWithNudges()) {
      stopping?.throwIfAborted();
      try {
        const sent = await this.runBusiness(jobScope({ businessId }), settings, now);
        total.invite += sent.invite;
        total.reminder += sent.reminder;
        total.summary += sent.summary;
      } catch (error) {
        this.logger.error(`referral nudges of business ${businessId}: ${errorMessage(error)}`);
      }
    }
    return total;
  }

  /** One business's due nudges as of `now`, at most {@link NUDGES_BATCH} per kind. */
  private async runBusiness(
    scope: BusinessScope,
    settings: ReferralNudgeSettings,
    now: Date,
  ): Promise<NudgeRunResult> {
    const { monthStart, period } = nudgeMonth(now);
    const at = { now, monthStart, cap: NUDGES_PER_MEMBER_PER_MONTH, limit: NUDGES_BATCH };
    const sent: NudgeRunResult = { invite: 0, reminder: 0, summary: 0 };
    if (settings.inviteAfterDays !== null) {
      const due = await this.repository.dueInvites(scope, {
        ...at,
        afterDays: settings.inviteAfterDays,
      });
      for (const member of due)
        if (await this.send(scope, member, 'invite', 'once', nudgeData(member, now), monthStart))
          sent.invite += 1;
    }
    const afterVisits = settings.inviteAfterVisits ?? null;
    if (afterVisits !== null) sent.invite += await this.inviteAfterVisits(scope, afterVisits, at);
    if (
      (settings.inviteAfterDays !== null || afterVisits !== null) &&
      settings.reminderAfterDays !== null
    ) {
      const due = await this.repository.dueReminders(scope, {
        ...at,
        afterDays: settings.reminderAfterDays,
      });
      for (const member of due)
        if (await this.send(scope, member, 'reminder', 'once', nudgeData(member, now), monthStart))
          sent.reminder += 1;
    }
    if (settings.monthlySummary) {
      const due = await this.repository.dueSummaries(scope, { ...at, period });
      for (const member of due)
        if (await this.send(scope, member, 'summary', period, summaryFigures(member), monthStart))
          sent.summary += 1;
    }
    return sent;
  }

  /**
   * The invitation after the Nth visit (docs/decisions/mindbody-visits.md): asks the billing/CRM
   * about at most {@link NUDGES_BATCH} uninvited Mindbody members not asked within
   * {@link VISITS_RECHECK_MS} (least recently asked first), each only for the classes since its
   * last check (`counted_until`; the whole history the first time) up to
   * `now` − {@link VISIT_SETTLE_MS}, adds them to its stored count, records the check, and invites
   * those whose count reaches N. A member the billing/CRM failed for keeps its count and is asked
   * again at a later run.
   * @returns invitations queued
   */
  private async inviteAfterVisits(
    scope: BusinessScope,
    visits: number,
    at: { now: Date; monthStart: Date; cap: number; limit: number },
  ): Promise<number> {
    const due = await this.repository.dueVisitChecks(scope, {
      ...at,
      recheckBefore: new Date(at.now.getTime() - VISITS_RECHECK_MS),
    });
    const byClient = new Map(due.map((member) => [member.mindbodyClientId ?? '', member]));
    const countedUntil = new Date(at.now.getTime() - VISIT_SETTLE_MS);
    const counts = await this.visitSources.visitsBetween(
      scope,
      due.map((member) => ({
        clientId: member.mindbodyClientId ?? '',
        since: member.countedUntil,
      })),
      countedUntil,
      at.now,
    );
    const checks: { memberId: string; visits: number }[] = [];
    const reached: VisitCheckCandidate[] = [];
    for (const count of counts) {
      const member = byClient.get(count.clientId);
      if (!member || count.visits === null) continue;
      const total = member.countedVisits + count.visits;
      checks.push({ memberId: member.memberId, visits: total });
      if (total >= visits) reached.push(member);
    }
    // The counts first: an invitation that fails to queue leaves the count right for next week.
    await this.repository.saveVisitChecks(scope, checks, at.now, countedUntil);
    let sent = 0;
    for (const member of reached)
      if (
        await this.send(
          scope,
          member,
          'invite',
          'once',
          nudgeData(member, at.now, visits),
          at.monthStart,
        )
      )
        sent += 1;
    return sent;
  }

  /**
   * Records the nudge and queues its email in one transaction (nothing when it was already
   * recorded or the cap is reached under the member's lock); wakes the email worker after commit.
   * @returns true when queued
   */
  private async send<K extends ReferralNudgeKind>(
    scope: BusinessScope,
    member: NudgeCandidate,
    kind: K,
    period: string,
    data: MemberEmailData[(typeof TEMPLATE)[K]],
    monthStart: Date,
  ): Promise<boolean> {
    const queued = await this.repository.transaction(async (manager) => {
      const recorded = await this.repository.record(scope, manager, {
        memberId: member.memberId,
        kind,
        period,
        monthStart,
        cap: NUDGES_PER_MEMBER_PER_MONTH,
      });
      if (!recorded) return false;
      return this.emails.send(
        scope,
        member.memberId,
        TEMPLATE[kind],
        data,
        `referral-nudge:${kind}:${period}:${member.memberId}`,
        { manager },
      );
    });
    if (queued) this.emails.wake();
    return queued;
  }
}
