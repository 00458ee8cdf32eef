import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DEFAULT_SHARE_MESSAGE,
  isValidEmail,
  localeFormats,
  memberBillFormats,
  type BusinessLocale,
  referralLinkUrl,
  welcomeOfferWording,
  type ReferrerRewardFields,
  type WelcomeOffer,
} from '@grove/contracts';
import { AppConfig } from '../../platform/config/app-config';
import { jobScope, type BusinessScope } from '../../platform/database/business-scope';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MailService } from '../../platform/mail/mail.service';
import { SENDING_ABANDONED_AFTER_SECONDS, sendClaimed } from '../../platform/mail/at-most-once';
import { ReferrerRewardService } from '../../membership/referrer-reward/referrer-reward.service';
import { MemberAuthService } from '../member-auth/member-auth.service';
import {
  isMemberEmailName,
  MEMBER_EMAIL_TEMPLATES,
  renderMemberEmail,
  type MemberEmailData,
  type MemberEmailName,
  type RenderedMemberEmail,
} from './templates';
import {
  MemberEmailsRepository,
  type HeldReason,
  type MemberEmailStatus,
} from './member-emails.repository';
import {
  MEMBER_EMAIL_RELEASE_QUEUE,
  type MemberEmailReleaseJob,
} from '../../platform/mail/held-member-emails';

/**
 * The hourly run over every business: emails left 'sending' by an attempt that never came back are
 * settled (member emails, and Grove's own through `MailService.settleAbandoned`), then waiting
 * emails are released (a new UTC day resets the cap).
 */
const RELEASE_ALL_QUEUE = 'member-email.release-all';
const RELEASE_ALL_CRON = '7 * * * *';

/** The pg-boss queue delivering member emails. */
export const MEMBER_EMAIL_QUEUE = 'member-email.send';

/** Data of a `member-email.send` job: which row (no personal data in the queue). */
export interface MemberEmailJob {
  businessId: string;
  emailId: string;
}

/** Options of `MemberEmails.send`. */
export interface MemberEmailOptions {
  /**
   * Queue in this open transaction (`runTransaction`'s manager): the row and its job are then
   * committed or rolled back with the caller's writes; call {@link MemberEmails.wake} after it
   * commits. Without it, `send` runs its own transaction.
   */
  manager?: EntityManager;
}

/** First name of a member's name ('Ana María Ruiz' → 'Ana'). */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}

/**
 * Emails to members (issue 15), the one way to send one:
 *
 * ```ts
 * await memberEmails.send(scope, memberId, 'referral-link', data, `referral-link:${memberId}:${hour}`);
 * ```
 *
 * - `send` records the event in `member_emails` (UNIQUE business + `eventKey`: the same event
 *   twice queues nothing the second time) and queues a `member-email.send` job whose id is the
 *   row's id, both in one transaction (the caller's, or its own): a row never lacks its job, even
 *   when the process dies in between. Retries: 3, backoff from 5 s.
 * - The job renders the template at delivery (`templates/`: MJML → HTML part, html-to-text →
 *   plain-text part), from the business's name as display name (MAIL_FROM's address), to the
 *   member's current address, every link on PUBLIC_ORIGIN (`AppConfig.publicOrigin`, never a
 *   request's Host: issue 24 part 1), with `List-Unsubscribe` (the member's one-click unsubscribe URL)
 *   and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058) and an unsubscribe link
 *   in the footer. A member who unsubscribed gets nothing (status 'unsubscribed') except the
 *   transactional magic link they asked for. Through `MailService.deliver`: SMTP_URL, or the
 *   `outbox_emails` table. A member whose stored address is not one plain mailbox (`isValidEmail`:
 *   an address stored before the rule, issue 24 part 2) gets nothing: 'invalid_address'.
 * - At most once to the SMTP server: the job claims the row ('sending') before SMTP; once
 *   delivered it is 'sent'/'outboxed'. A retry after an attempt whose outcome is unknown (the
 *   connection lost after the message was handed over, the outcome not recorded, a crash) marks
 *   it 'uncertain' and sends nothing (docs/decisions/member-emails-at-most-once.md).
 */
@Injectable()
export class MemberEmails implements OnModuleInit {
  private readonly logger = new Logger(MemberEmails.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly mail: MailService,
    private readonly emails: MemberEmailsRepository,
    private readonly auth: MemberAuthService,
    private readonly config: AppConfig,
    private readonly rewards: ReferrerRewardService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<MemberEmailJob>(
      { name: MEMBER_EMAIL_QUEUE, retryLimit: 3, retryDelay: 5, retryBackoff: true },
      async (job) => {
        await this.deliver(job);
      },
    );
    await this.jobs.register<MemberEmailReleaseJob>(
      { name: MEMBER_EMAIL_RELEASE_QUEUE, retryLimit: 3, retryDelay: 5, retryBackoff: true },
      async (job) => {
        await this.release(jobScope(job));
      },
    );
    await this.jobs.register<object>(
      { name: RELEASE_ALL_QUEUE, policy: 'singleton', retryLimit: 1 },
      async () => {
        await this.hourly();
      },
    );
    await this.jobs.schedule(RELEASE_ALL_QUEUE, RELEASE_ALL_CRON);
  }

  /**
   * The hourly run over every business (RELEASE_ALL_QUEUE): emails left 'sending' longer than
   * SENDING_ABANDONED_AFTER_SECONDS become 'uncertain' (never sent again), and Grove's own emails
   * likewise (`MailService.settleAbandoned`), then each business's waiting emails are released as
   * far as its cap allows.
   * @returns how many member emails were settled and how many released
   */
  async hourly(): Promise<{ settled: number; released: number }> {
    await this.mail.settleAbandoned();
    const settled = await this.emails.settleAbandoned(SENDING_ABANDONED_AFTER_SECONDS);
    if (settled > 0)
      this.logger.warn(`${settled} member email(s) left 'sending' by a lost attempt: 'uncertain'`);
    let released = 0;
    for (const businessId of await this.emails.businessesHolding())
      released += await this.release(jobScope({ businessId }));
    return { settled, released };
  }

  /**
   * Why an email to a member of this business must wait now (docs/product.md#verified-senders),
   * or null: no owner verified their email yet (SENDER_VERIFICATION), or the business delivered
   * MEMBER_EMAIL_DAILY_CAP member emails today (UTC). The count and the send are not one atomic
   * step: concurrent workers may pass the cap by at most their number.
   */
  private async holdReason(
    scope: BusinessScope,
    senderVerified: boolean,
  ): Promise<HeldReason | null> {
    if (this.config.dataRights.senderVerification && !senderVerified) return 'unverified_sender';
    if ((await this.emails.deliveredToday(scope)) >= this.config.dataRights.memberEmailDailyCap)
      return 'daily_cap';
    return null;
  }

  /**
   * Sends the business's waiting emails again (the release job: after an owner verified their
   * email, and hourly): as many as today's cap leaves room for, oldest first, each with a new
   * delivery job (delivery holds it again if the reason still holds).
   * @returns how many were released
   */
  async release(scope: BusinessScope): Promise<number> {
    const status = await this.emails.sending(scope);
    if (this.config.dataRights.senderVerification && !status.senderVerified) return 0;
    const room = this.config.dataRights.memberEmailDailyCap - status.deliveredToday;
    if (room <= 0) return 0;
    const released = await this.emails.transaction(async (manager) => {
      const ids = await this.emails.release(scope, manager, room);
      await this.jobs.insert<MemberEmailJob>(
        MEMBER_EMAIL_QUEUE,
        ids.map((id) => ({
          id: randomUUID(),
          data: { businessId: scope.businessId, emailId: id },
        })),
        manager,
      );
      return ids.length;
    });
    if (released > 0) {
      this.wake();
      this.logger.log(`released ${released} waiting member email(s)`);
    }
    return released;
  }

  /**
   * Queues one email event to a member of the scope's business.
   * @param scope the business (session, job or webhook scope)
   * @param memberId the member (`members.id`) it is sent to
   * @param template the template's name (`templates/index.ts`)
   * @param data the template's data (stored as JSON with the row: no secrets)
   * @param eventKey what happened, unique per business (e.g. `branch-counting:<branch id>`)
   * @returns true when queued; false when this event key was already queued (nothing sent
   *   again) or the member is not the business's
   */
  async send<K extends MemberEmailName>(
    scope: BusinessScope,
    memberId: string,
    template: K,
    data: MemberEmailData[K],
    eventKey: string,
    options: MemberEmailOptions = {},
  ): Promise<boolean> {
    const queue = async (manager: EntityManager): Promise<boolean> => {
      const id = await this.emails.insert(scope, manager, {
        memberId,
        template,
        data,
        origin: this.config.publicOrigin,
        eventKey,
      });
      if (id === null) return false;
      await this.jobs.send<MemberEmailJob>(
        MEMBER_EMAIL_QUEUE,
        { businessId: scope.businessId, emailId: id },
        { id, manager },
      );
      return true;
    };
    if (options.manager) return queue(options.manager);
    const queued = await this.emails.transaction(queue);
    if (queued) this.wake();
    return queued;
  }

  /**
   * Queues one email event to each of many members of the scope's business, as `send` does for
   * one, in TWO statements whatever their number (the rows, then their delivery jobs), inside
   * `manager`'s transaction; call {@link wake} after it commits.
   * @param emails each member (`members.id`), the template's data and the event's key
   * @returns the members whose email was queued (not those whose event key was already queued,
   *   nor members not of the business)
   */
  async sendMany<K extends MemberEmailName>(
    scope: BusinessScope,
    template: K,
    emails: readonly { memberId: string; data: MemberEmailData[K]; eventKey: string }[],
    manager: EntityManager,
  ): Promise<Set<string>> {
    const origin = this.config.publicOrigin;
    const ids = await this.emails.insertMany(
      scope,
      manager,
      emails.map((email) => ({ ...email, template, origin })),
    );
    await this.jobs.insert<MemberEmailJob>(
      MEMBER_EMAIL_QUEUE,
      [...ids.values()].map((id) => ({ id, data: { businessId: scope.businessId, emailId: id } })),
      manager,
    );
    return new Set(ids.keys());
  }

  /**
   * Queues an event email to a member, at most `cap.limit` of its template per
   * `cap.windowSeconds` per member (issue 24 part 6: a burst of joins through one link must not
   * flood the referrer). Past the cap the event joins ONE summary email (`cap.summaryTemplate`,
   * data `{ friendNames, eventKeys, … }`): the member's summary still waiting gets the event's
   * name and key added, or a new one is queued to be sent when the window has room again (the
   * oldest counted email's time + the window). The member's capped sends are serialised by a
   * transaction lock, so concurrent events cannot both see room. An event is told once: its key
   * as its own email or in a summary (a retried job changes nothing).
   * @param event the event's own email: template data, unique key, and the name a summary lists
   * @param cap the limit, its window (seconds), the summary's template and its data besides the
   *   lists (e.g. the discount per branch)
   * @returns 'queued' (its own email), 'summarised' (in a summary) or 'duplicate' (told already,
   *   or not a member of the business)
   */
  async sendCapped<K extends MemberEmailName>(
    scope: BusinessScope,
    memberId: string,
    template: K,
    event: { data: MemberEmailData[K]; eventKey: string; name: string },
    cap: {
      limit: number;
      windowSeconds: number;
      summaryTemplate: 'friends-joined';
      summaryData: Omit<MemberEmailData['friends-joined'], 'friendNames' | 'eventKeys'>;
    },
  ): Promise<'queued' | 'summarised' | 'duplicate'> {
    const outcome = await this.emails.transaction(async (manager) => {
      await this.emails.lockMember(scope, manager, memberId);
      if (
        await this.emails.alreadyTold(scope, manager, memberId, event.eventKey, cap.summaryTemplate)
      )
        return 'duplicate' as const;
      const recent = await this.emails.queuedSince(
        scope,
        manager,
        memberId,
        template,
        cap.windowSeconds,
      );
      if (recent.length < cap.limit) {
        const queued = await this.send(scope, memberId, template, event.data, event.eventKey, {
          manager,
        });
        return queued ? ('queued' as const) : ('duplicate' as const);
      }
      const added = await this.emails.addToQueuedSummary(
        scope,
        manager,
        memberId,
        cap.summaryTemplate,
        { eventKey: event.eventKey, name: event.name },
      );
      if (added) return 'summarised' as const;
      const oldestCounted = recent[recent.length - cap.limit] ?? new Date();
      const id = await this.emails.insert(scope, manager, {
        memberId,
        template: cap.summaryTemplate,
        data: { ...cap.summaryData, friendNames: [event.name], eventKeys: [event.eventKey] },
        origin: this.config.publicOrigin,
        eventKey: `${cap.summaryTemplate}:${event.eventKey}`,
      });
      if (id === null) return 'duplicate' as const;
      await this.jobs.send<MemberEmailJob>(
        MEMBER_EMAIL_QUEUE,
        { businessId: scope.businessId, emailId: id },
        {
          id,
          manager,
          startAfter: new Date(oldestCounted.getTime() + cap.windowSeconds * 1000),
        },
      );
      return 'summarised' as const;
    });
    if (outcome === 'queued') this.wake();
    return outcome;
  }

  /**
   * Renders `template` as the member would get it, for the owner to look at before a send (issue
   * 25: 'Email all links' shows one example): the same template, layout and links on
   * PUBLIC_ORIGIN as {@link deliver}, but nothing is queued or sent and no token is issued: the
   * member page button leads to `<origin>/member` (where the member asks for a link) and the
   * unsubscribe link is a placeholder (`…/unsubscribe/example`, not the member's own).
   * @param member the business's name, locale, share message (null: the default), welcome
   *   offer (null: none) and reward for referrers (null: the ongoing discount), the member's full name and their live link code (or null)
   */
  example<K extends MemberEmailName>(
    template: K,
    data: MemberEmailData[K],
    member: {
      businessName: string;
      businessLocale: BusinessLocale;
      memberName: string;
      referralCode: string | null;
      shareMessage: string | null;
      welcomeOffer: WelcomeOffer | null;
      referrerReward: ReferrerRewardFields | null;
      /** What is left under the cap (`ReferrerRewardService.rewardsLeft`), when the caller knows it. */
      rewardsLeft?: string | null;
    },
  ): Promise<RenderedMemberEmail> {
    const origin = this.config.publicOrigin;
    const definition = MEMBER_EMAIL_TEMPLATES[template];
    return renderMemberEmail(template, data, {
      businessName: member.businessName,
      format: localeFormats(member.businessLocale),
      memberFirstName: firstName(member.memberName),
      unsubscribeUrl:
        definition.transactional === true
          ? null
          : `${origin}/api/member-emails/unsubscribe/example`,
      magicLinkUrl: definition.withMagicLink ? `${origin}/member` : null,
      referralUrl: member.referralCode ? referralLinkUrl(origin, member.referralCode) : null,
      shareMessage: member.shareMessage ?? DEFAULT_SHARE_MESSAGE,
      welcomeOffer: welcomeOfferWording(member.welcomeOffer, localeFormats(member.businessLocale)),
      referrerReward: member.referrerReward,
      rewardsLeft: member.rewardsLeft ?? null,
    });
  }

  /** Wakes this instance's email worker (after a transaction that queued emails through `send`). */
  wake(): void {
    this.jobs.wake(MEMBER_EMAIL_QUEUE);
  }

  /**
   * Delivers one queued member email now (the job's handler), at most once to the SMTP server
   * (docs/decisions/member-emails-at-most-once.md): the row is claimed 'queued' → 'sending' in a
   * committed statement just before SMTP, then marked with the outcome. A failure where the server
   * cannot have accepted it (`smtpNotAccepted`: a refusal, no connection) puts it back to 'queued'
   * and throws, for the job's retry; any other failure (a connection lost mid-conversation, the
   * outcome not recorded) leaves it 'sending', and the retry marks it 'uncertain' without sending.
   * @returns the row's status afterwards (null: no such email, or another attempt claimed it)
   * @throws the SMTP error or the database's (the job is retried)
   */
  async deliver(job: MemberEmailJob): Promise<MemberEmailStatus | null> {
    const scope = jobScope(job);
    const email = await this.emails.forDelivery(scope, job.emailId);
    if (email?.status === 'sending') {
      // An attempt before this one began the SMTP conversation and never recorded how it ended:
      // the server may have the email. Never twice (docs/decisions/member-emails-at-most-once.md).
      await this.emails.markDelivered(scope, job.emailId, 'uncertain');
      this.logger.warn(
        `member email ${job.emailId}: an earlier attempt's outcome is unknown; not sent again`,
      );
      return 'uncertain';
    }
    if (!email || email.status !== 'queued') return email?.status ?? null;
    if (!email.memberEmail || !email.memberName || !isMemberEmailName(email.template)) {
      await this.emails.markNotSent(scope, job.emailId, 'no_member');
      return 'no_member';
    }
    if (!isValidEmail(email.memberEmail)) {
      await this.emails.markNotSent(scope, job.emailId, 'invalid_address');
      return 'invalid_address';
    }
    const template = MEMBER_EMAIL_TEMPLATES[email.template];
    const transactional = template.transactional === true;
    // What the member asked for themselves (a sign-in link) never waits.
    const waitFor = transactional ? null : await this.holdReason(scope, email.senderVerified);
    if (waitFor) {
      await this.emails.hold(scope, job.emailId, waitFor);
      return 'held';
    }
    if (email.unsubscribed && !transactional) {
      await this.emails.markNotSent(scope, job.emailId, 'unsubscribed');
      return 'unsubscribed';
    }
    // Links on the configured origin only (the row's `origin` may predate PUBLIC_ORIGIN).
    const origin = this.config.publicOrigin;
    const oneClickUrl =
      !transactional && email.unsubscribeToken
        ? `${origin}/api/member-emails/unsubscribe/${email.unsubscribeToken}`
        : null;
    const magicToken = template.withMagicLink
      ? await this.auth.issueMagicLink(scope, email.memberId)
      : null;
    const rendered = await renderMemberEmail(
      email.template,
      email.data as MemberEmailData[typeof email.template],
      {
        businessName: email.businessName,
        // Amounts in the member's bill's currency (a Stripe subscription's), `memberBillFormats`.
        format: memberBillFormats(email.businessLocale, email.currency),
        memberFirstName: firstName(email.memberName),
        unsubscribeUrl: oneClickUrl,
        magicLinkUrl: magicToken ? `${origin}/member#token=${magicToken}` : null,
        referralUrl: email.referralCode ? referralLinkUrl(origin, email.referralCode) : null,
        shareMessage: email.shareMessage ?? DEFAULT_SHARE_MESSAGE,
        welcomeOffer: welcomeOfferWording(email.welcomeOffer, localeFormats(email.businessLocale)),
        referrerReward: email.referrerReward,
        rewardsLeft: template.withRewardsLeft
          ? await this.rewards.rewardsLeft(scope, email.memberId)
          : null,
      },
    );
    const to = email.memberEmail;
    // Claimed, committed, before SMTP: a retry that finds it still 'sending' does not send again;
    // refused or never connected, the claim is taken back and the job's retry may send it.
    const outcome = await sendClaimed(
      {
        claim: () => this.emails.claim(scope, job.emailId),
        unclaim: () => this.emails.unclaim(scope, job.emailId),
      },
      () =>
        this.mail.deliver({
          to,
          fromName: email.businessName,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          ...(oneClickUrl
            ? {
                headers: {
                  'List-Unsubscribe': `<${oneClickUrl}>`,
                  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
                },
              }
            : {}),
        }),
    );
    if (outcome === null) return null;
    const status = outcome === 'refused' ? 'invalid_address' : outcome;
    await this.emails.markDelivered(scope, job.emailId, status);
    return status;
  }
}
