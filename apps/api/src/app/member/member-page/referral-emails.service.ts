import { referralLinkUrl } from '@grove/contracts';
import { AppConfig } from '../../platform/config/app-config';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { BusinessScope } from '../../platform/database/business-scope';
import { BackgroundRun } from '../../platform/jobs/background-run';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MemberEmailsRepository } from '../member-emails/member-emails.repository';
import { MemberEmails } from '../member-emails/member-emails.service';
import type { MemberEmailData } from '../member-emails/templates';
import { MemberNotFoundException } from '../../membership/members/members.exceptions';
import {
  ReferralEmailNoExampleException,
  ReferralEmailNoLinkException,
  ReferralEmailTooSoonException,
} from './member-page.exceptions';
import { memberPrice } from '../../membership/pricing/price';
import type {
  ReferralEmailExampleDto,
  ReferralEmailPreviewDto,
  ReferralEmailResultDto,
  ReferralEmailRunDto,
} from './dto/referral-email.dto';
import { MemberPageRepository, type MemberFacts } from './member-page.repository';

/** How long after "Your referral link" a member can be sent it again, seconds. */
export const REFERRAL_EMAIL_INTERVAL_SECONDS = 3600;

/** The pg-boss queue of 'Email all links'. */
export const REFERRAL_EMAILS_ALL_QUEUE = 'referral-emails.all';

/** Members per transaction (and per progress step) of an 'Email all links' run. */
export const REFERRAL_EMAILS_BATCH_SIZE = 100;

/**
 * "Your referral link" (issue 15), sent by the owner from Referral Links to one member or to
 * every member with a live link: the member's referral link, their price now and discount per
 * friend, and a magic link to their member page (issued at delivery). Once per member per hour
 * (REFERRAL_EMAIL_INTERVAL_SECONDS): the event key is the member and the hour, and a member
 * emailed within the last hour is refused (one member: 429) or skipped (all). 'Email all links'
 * is one request that starts a background run (`BackgroundRun`, queue `referral-emails.all`,
 * progress in `referral_email_runs`), one at a time per business.
 */
@Injectable()
export class ReferralEmailsService implements OnModuleInit {
  private readonly run: BackgroundRun;

  constructor(
    private readonly pages: MemberPageRepository,
    private readonly emails: MemberEmails,
    private readonly sent: MemberEmailsRepository,
    private readonly config: AppConfig,
    jobs: JobsService,
  ) {
    this.run = new BackgroundRun(jobs, REFERRAL_EMAILS_ALL_QUEUE, pages.emailRuns);
  }

  async onModuleInit(): Promise<void> {
    await this.run.register((scope, { startedAt }, stopping) =>
      this.emailAll(scope, startedAt, stopping),
    );
  }

  /**
   * Queues "Your referral link" to one member.
   * @throws MemberNotFoundException 404 not a member of the business (or a malformed id)
   * @throws ReferralEmailNoLinkException 404 the member has no live link
   * @throws ReferralEmailTooSoonException 429 emailed it within the hour
   */
  async sendOne(scope: BusinessScope, memberId: string): Promise<ReferralEmailResultDto> {
    const member = isUUID(memberId) ? await this.pages.member(scope, memberId) : null;
    if (!member) throw new MemberNotFoundException();
    if (!member.linkCode) throw new ReferralEmailNoLinkException();
    const recent = await this.sent.recentlyEmailed(
      scope,
      [memberId],
      'referral-link',
      this.since(),
    );
    if (recent.size > 0 || !(await this.queue(scope, member)))
      throw new ReferralEmailTooSoonException();
    return { queued: 1, skipped: 0 };
  }

  /**
   * 'Email all links': starts a background run that emails "Your referral link" to every member
   * with a live link not emailed it within the hour (idempotent: while a run is going, another
   * click starts nothing; with no member with a link the run is done at once).
   * @returns the run's state right after starting it (poll {@link status} for progress)
   */
  async startAll(scope: BusinessScope): Promise<ReferralEmailRunDto> {
    await this.run.start(scope, await this.pages.countWithLinks(scope), {});
    return this.status(scope);
  }

  /**
   * Who 'Email all links' would email now (the owner confirms with these counts first, issue 25):
   * members with a live link not emailed it within the hour, and those that would be skipped.
   * Counts only; nothing is queued.
   */
  async preview(scope: BusinessScope): Promise<ReferralEmailPreviewDto> {
    const { due, recent } = await this.pages.countWithLinksByRecentEmail(
      scope,
      'referral-link',
      this.since(),
    );
    return { members: due, alreadyEmailed: recent };
  }

  /**
   * One "Your referral link" as a real member of the business would get it from 'Email all
   * links' (issue 25): their link, price now and discount per friend, rendered by the template
   * the send uses (`MemberEmails.example`: nothing queued, no token issued).
   * @param memberId that member (of the business, with a live link); absent: the first member by
   *   name with a live link and an email, preferring one not emailed it within the hour
   * @throws MemberNotFoundException 404 `memberId` not a member of the business
   * @throws ReferralEmailNoLinkException 404 `memberId` has no live link
   * @throws ReferralEmailNoExampleException 404 no member of the business has a live link
   */
  async example(scope: BusinessScope, memberId?: string): Promise<ReferralEmailExampleDto> {
    const id = memberId ?? (await this.pages.exampleMemberId(scope, 'referral-link', this.since()));
    if (id === null) throw new ReferralEmailNoExampleException();
    const member = await this.pages.member(scope, id);
    if (!member) throw new MemberNotFoundException();
    if (!member.linkCode) throw new ReferralEmailNoLinkException();
    const rendered = await this.emails.example('referral-link', this.referralEmail(member).data, {
      businessName: member.businessName,
      businessLocale: member.businessLocale,
      memberName: member.name,
      referralCode: member.linkCode,
      shareMessage: member.shareMessage,
      welcomeOffer: member.welcomeOffer,
      referrerReward: member.referrerReward,
    });
    return { memberId: member.memberId, memberName: member.name, ...rendered };
  }

  /** The latest 'Email all links' run, 'idle' when none. */
  async status(scope: BusinessScope): Promise<ReferralEmailRunDto> {
    const { status, total, processed, created } = await this.run.state(scope);
    return { status, total, processed, queued: created, skipped: processed - created };
  }

  /**
   * The run's work: members with a live link in batches of {@link REFERRAL_EMAILS_BATCH_SIZE},
   * each batch's emails (rows and jobs) and progress in one transaction. An attempt goes through
   * every member again: one emailed since the run started counts as this run's, one emailed
   * within the hour before it as skipped, so a retried attempt counts nobody twice.
   * @throws when `stopping` is aborted (the job is retried) or a write fails
   */
  private async emailAll(
    scope: BusinessScope,
    startedAt: Date,
    stopping: AbortSignal,
  ): Promise<void> {
    await this.pages.emailRuns.resetProgress(scope);
    let after: string | null = null;
    for (;;) {
      stopping.throwIfAborted();
      const members = await this.pages.membersWithLinks(scope, {
        after,
        limit: REFERRAL_EMAILS_BATCH_SIZE,
      });
      if (members.length === 0) return;
      after = members[members.length - 1]?.memberId ?? null;
      const recent = await this.sent.recentlyEmailed(
        scope,
        members.map((member) => member.memberId),
        'referral-link',
        this.since(),
      );
      // Emailed since this run started: this run's (an earlier attempt of it); within the hour
      // before: skipped; the rest are queued now.
      const ours = members.filter((member) => {
        const last = recent.get(member.memberId);
        return last !== undefined && last >= startedAt;
      });
      const due = members.filter((member) => !recent.has(member.memberId));
      await this.pages.transaction(async (manager) => {
        const queued = await this.emails.sendMany(
          scope,
          'referral-link',
          due.map((member) => this.referralEmail(member)),
          manager,
        );
        await this.pages.emailRuns.recordProgress(
          scope,
          manager,
          members.length,
          ours.length + queued.size,
        );
      });
      this.emails.wake();
    }
  }

  private since(): Date {
    return new Date(Date.now() - REFERRAL_EMAIL_INTERVAL_SECONDS * 1000);
  }

  /** Queues a member's 'referral-link' email (`referralEmail`) in a transaction of its own. */
  private queue(scope: BusinessScope, member: MemberFacts): Promise<boolean> {
    const { memberId, data, eventKey } = this.referralEmail(member);
    return this.emails.send(scope, memberId, 'referral-link', data, eventKey);
  }

  /**
   * A member's 'referral-link' email: their referral link on PUBLIC_ORIGIN (never a request's
   * Host), their price now and discount per branch (cents); one event per member per hour.
   */
  private referralEmail(member: MemberFacts): {
    memberId: string;
    data: MemberEmailData['referral-link'];
    eventKey: string;
  } {
    const price = memberPrice(member);
    const base = this.config.publicOrigin;
    const hour = Math.floor(Date.now() / (REFERRAL_EMAIL_INTERVAL_SECONDS * 1000));
    return {
      memberId: member.memberId,
      data: {
        referralUrl: referralLinkUrl(base, member.linkCode ?? ''),
        priceNowCents: price.priceNowCents ?? member.membershipPriceCents,
        discountPerBranchCents: price.discountPerBranchCents,
      },
      eventKey: `referral-link:${member.memberId}:${hour}`,
    };
  }
}
