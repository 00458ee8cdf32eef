import { Injectable, Logger } from '@nestjs/common';
import type { MemberEmailSettings } from '@grove/contracts';
import type { MemberEmailSettingsDto } from './dto/member-email-settings.dto';
import { safeErrorText } from '../../platform/common/log-safety';
import type { BusinessScope } from '../../platform/database/business-scope';
import { MemberEmails } from '../member-emails/member-emails.service';
import type {
  BranchApprovedEvent,
  BranchCountingEvent,
  BranchEndedEvent,
  FriendJoinedEvent,
} from '../../membership/events/membership-events';
import { MembershipEvents } from '../../membership/events/membership-events';
import { MemberEmailSettingsRepository } from './member-email-settings.repository';
import { AuditLog } from '../../platform/audit/audit-log';

/**
 * At most this many "{friend} joined with your link" emails per referrer per
 * `FRIEND_JOINED_WINDOW_SECONDS` (issue 24 part 6, docs/product.md#member-emails); the joins past
 * it are told in one "N more friends joined with your link" email once the hour has room.
 */
export const FRIEND_JOINED_EMAILS_PER_WINDOW = 5;
/** The window of `FRIEND_JOINED_EMAILS_PER_WINDOW`, seconds (one hour). */
export const FRIEND_JOINED_WINDOW_SECONDS = 3600;

/**
 * The event emails to members (issue 15 part 2), each sent once per event through
 * `MemberEmails.send` (a pg-boss job with retries; the event key is unique per business, so the
 * same event twice sends nothing more; a member who unsubscribed gets none), and only when the
 * owner left it on in the business's settings:
 * - 'friend-joined' → the referrer, key `friend-joined:<prospect id>`, at most
 *   `FRIEND_JOINED_EMAILS_PER_WINDOW` an hour per referrer; the joins past that are listed in
 *   one 'friends-joined' summary sent when the hour has room (issue 24 part 6);
 * - 'branch-counting' → the referrer when the branch starts counting (at approval, or later by the
 *   business's rule: `BranchQualificationService`), and 'welcome' → the approved friend, keys
 *   `branch-counting:<branch id>` and `welcome:<branch id>`;
 * - 'branch-ended' → the referrer, key `branch-ended:<branch id>` (a member is a branch once).
 * The notify methods of owner actions never throw: a failure to queue is logged and the owner's
 * action stands; `friendJoined` throws, for its job to be retried.
 *
 * Membership and referral flows never call this class: they announce on `MembershipEvents`
 * ('friend.joined', 'branch.approved', 'branch.counting', 'branch.ended') and this class listens
 * from its construction (docs/architecture.md#api-areas).
 */
@Injectable()
export class MemberNotifications {
  private readonly logger = new Logger(MemberNotifications.name);

  constructor(
    private readonly emails: MemberEmails,
    private readonly settingsRepository: MemberEmailSettingsRepository,
    private readonly audit: AuditLog,
    events: MembershipEvents,
  ) {
    // Listens from construction, before any module's `onModuleInit` starts job workers that may
    // emit (a follow-up job waiting in the queue runs as soon as its worker registers).
    events.on('friend.joined', ({ scope, ...event }) => this.friendJoined(scope, event));
    events.on('branch.approved', ({ scope, ...event }) => this.branchApproved(scope, event));
    events.on('branch.counting', ({ scope, ...event }) => this.branchCounting(scope, event));
    events.on('branch.ended', ({ scope, ...event }) => this.branchEnded(scope, event));
  }

  /** The business's member email settings. */
  settings(scope: BusinessScope): Promise<MemberEmailSettingsDto> {
    return this.settingsRepository.get(scope);
  }

  /**
   * Saves the business's member email settings and records the change in the audit log ('Emails
   * to members', docs/product.md#audit-log) in one transaction. @returns them as stored
   */
  saveSettings(
    scope: BusinessScope,
    settings: MemberEmailSettings,
  ): Promise<MemberEmailSettingsDto> {
    return this.audit.changeSetting(
      scope,
      'Emails to members',
      (manager) => this.settingsRepository.get(scope, manager),
      (manager) => this.settingsRepository.update(scope, manager, settings),
    );
  }

  /**
   * "{friend} joined with your link" to the referrer, at most `FRIEND_JOINED_EMAILS_PER_WINDOW`
   * an hour per referrer (a burst of joins through one link, from one client or many, cannot
   * flood them); a join past the cap goes into the referrer's one "N more friends joined with
   * your link" summary, sent when the hour has room (`MemberEmails.sendCapped`). Unlike the
   * others it throws: its caller is the join's follow-up job (`ProspectsService.followUpJoin`),
   * which pg-boss retries.
   * @returns true when queued or summarised
   * @throws when reading the settings or queueing fails
   */
  async friendJoined(scope: BusinessScope, event: FriendJoinedEvent): Promise<boolean> {
    if (!(await this.settings(scope)).friendJoined) return false;
    const outcome = await this.emails.sendCapped(
      scope,
      event.referrerId,
      'friend-joined',
      {
        data: {
          friendName: event.friendName,
          discountPerBranchCents: event.discountPerBranchCents,
        },
        eventKey: `friend-joined:${event.prospectId}`,
        name: event.friendName,
      },
      {
        limit: FRIEND_JOINED_EMAILS_PER_WINDOW,
        windowSeconds: FRIEND_JOINED_WINDOW_SECONDS,
        summaryTemplate: 'friends-joined',
        summaryData: { discountPerBranchCents: event.discountPerBranchCents },
      },
    );
    return outcome !== 'duplicate';
  }

  /**
   * "{friend} is now your branch: your price is now $X" to the referrer, if turned on; once per
   * branch (a branch that lapses and counts again is not announced twice); inside
   * `event.manager`'s transaction when given.
   * @returns true when queued
   * @throws (with `event.manager` only) what queueing threw, so that transaction rolls back
   */
  branchCounting(scope: BusinessScope, event: BranchCountingEvent): Promise<boolean> {
    const queue = async () => this.queueBranchCounting(scope, await this.settings(scope), event);
    return event.manager ? queue() : this.guarded('branch-counting', false, queue);
  }

  /**
   * "{friend} is now your branch: your price is now $X" to the referrer (unless the branch is
   * still pending: `event.counting` false) and the welcome to the friend, each if turned on;
   * inside `event.manager`'s transaction (the approval's) when given.
   * @returns how many were queued
   * @throws (with `event.manager` only) what queueing threw, so the approval rolls back
   */
  branchApproved(scope: BusinessScope, event: BranchApprovedEvent): Promise<number> {
    const queue = async () => {
      const settings = await this.settings(scope);
      let queued = 0;
      if (event.counting !== false && (await this.queueBranchCounting(scope, settings, event)))
        queued += 1;
      if (
        settings.welcome &&
        (await this.emails.send(
          scope,
          event.branchId,
          'welcome',
          {
            referrerName: event.referrerName,
            ...(event.welcomeOffer ? { welcomeOffer: event.welcomeOffer } : {}),
          },
          `welcome:${event.branchId}`,
          { manager: event.manager },
        ))
      )
        queued += 1;
      return queued;
    };
    return event.manager ? queue() : this.guarded('branch-approved', 0, queue);
  }

  /**
   * To the referrer: "{friend} no longer counts as your branch: your price is back to $Y" when the
   * owner removed it (`reason` 'removed'), "{friend}'s membership ended: …" when its membership
   * ended or was suspended ('ended'); inside `event.manager`'s transaction when given.
   * @returns true when queued
   * @throws (with `event.manager` only) what queueing threw, so that transaction rolls back
   */
  branchEnded(scope: BusinessScope, event: BranchEndedEvent): Promise<boolean> {
    const queue = async () => {
      if (!(await this.settings(scope)).branchEnded) return false;
      return this.emails.send(
        scope,
        event.referrerId,
        'branch-ended',
        { friendName: event.friendName, priceNowCents: event.priceNowCents, reason: event.reason },
        `branch-ended:${event.branchId}`,
        { manager: event.manager },
      );
    };
    // Inside the caller's transaction a failure must roll it back (nothing half-done, retried).
    return event.manager ? queue() : this.guarded('branch-ended', false, queue);
  }

  /**
   * Queues 'branch-counting' (key `branch-counting:<branch id>`) when the setting is on, inside
   * `event.manager`'s transaction when given.
   */
  private async queueBranchCounting(
    scope: BusinessScope,
    settings: MemberEmailSettings,
    event: BranchCountingEvent,
  ): Promise<boolean> {
    if (!settings.branchCounting) return false;
    return this.emails.send(
      scope,
      event.referrerId,
      'branch-counting',
      {
        friendName: event.friendName,
        priceNowCents: event.priceNowCents,
        priceBeforeCents: event.priceBeforeCents,
      },
      `branch-counting:${event.branchId}`,
      { manager: event.manager },
    );
  }

  /** Runs `work`; a failure is logged (no personal data) and answers `nothing` (nothing queued). */
  private async guarded<T>(what: string, nothing: T, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.logger.error(`queueing the ${what} email failed: ${safeErrorText(error)}`);
      return nothing;
    }
  }
}
