import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { ReferralEmailResult } from '@grove/contracts';
import { mapLimit } from '../common/async/map-limit';
import type { BusinessScope } from '../database/business-scope';
import { MemberEmailsRepository } from '../member-emails/member-emails.repository';
import { MemberEmails } from '../member-emails/member-emails.service';
import { MemberNotFoundException } from '../members/members.exceptions';
import {
  ReferralEmailNoLinkException,
  ReferralEmailTooSoonException,
} from './member-page.exceptions';
import { memberPrice } from './member-price';
import { MemberPageRepository, type MemberFacts } from './member-page.repository';

/** How long after "Your referral link" a member can be sent it again, seconds. */
export const REFERRAL_EMAIL_INTERVAL_SECONDS = 3600;

/**
 * "Your referral link" (issue 15), sent by the owner from Referral Links to one member or to
 * every member with a live link: the member's referral link, their price now and discount per
 * friend, and a magic link to their member page (issued at delivery). Once per member per hour
 * (REFERRAL_EMAIL_INTERVAL_SECONDS): the event key is the member and the hour, and a member
 * emailed within the last hour is refused (one member: 429) or skipped (all).
 */
@Injectable()
export class ReferralEmailsService {
  constructor(
    private readonly pages: MemberPageRepository,
    private readonly emails: MemberEmails,
    private readonly sent: MemberEmailsRepository,
  ) {}

  /**
   * Queues "Your referral link" to one member.
   * @throws MemberNotFoundException 404 not a member of the business (or a malformed id)
   * @throws ReferralEmailNoLinkException 404 the member has no live link
   * @throws ReferralEmailTooSoonException 429 emailed it within the hour
   */
  async sendOne(
    scope: BusinessScope,
    memberId: string,
    origin: string,
  ): Promise<ReferralEmailResult> {
    const member = isUUID(memberId) ? await this.pages.member(scope, memberId) : null;
    if (!member) throw new MemberNotFoundException();
    if (!member.linkCode) throw new ReferralEmailNoLinkException();
    const recent = await this.sent.recentlyEmailed(
      scope,
      [memberId],
      'referral-link',
      this.since(),
    );
    if (recent.size > 0 || !(await this.queue(scope, member, origin)))
      throw new ReferralEmailTooSoonException();
    return { queued: 1, skipped: 0 };
  }

  /** Queues "Your referral link" to every member with a live link not emailed it within the hour. */
  async sendAll(scope: BusinessScope, origin: string): Promise<ReferralEmailResult> {
    const members = await this.pages.membersWithLinks(scope);
    const recent = await this.sent.recentlyEmailed(
      scope,
      members.map((member) => member.memberId),
      'referral-link',
      this.since(),
    );
    // A few at once: each is a row insert and a job (the database pool has room for them).
    const results = await mapLimit(members, 4, async (member) =>
      recent.has(member.memberId) ? false : this.queue(scope, member, origin),
    );
    const queued = results.filter(Boolean).length;
    return { queued, skipped: members.length - queued };
  }

  private since(): Date {
    return new Date(Date.now() - REFERRAL_EMAIL_INTERVAL_SECONDS * 1000);
  }

  private queue(scope: BusinessScope, member: MemberFacts, origin: string): Promise<boolean> {
    const price = memberPrice(member);
    const base = this.emails.originFor(origin);
    const hour = Math.floor(Date.now() / (REFERRAL_EMAIL_INTERVAL_SECONDS * 1000));
    return this.emails.send(
      scope,
      member.memberId,
      'referral-link',
      {
        referralUrl: `${base}/referral/${member.linkCode ?? ''}`,
        priceNowCents: price.priceNowCents ?? member.membershipPriceCents,
        discountPerBranchCents: price.discountPerBranchCents,
      },
      `referral-link:${member.memberId}:${hour}`,
      { origin },
    );
  }
}
