import { Injectable, type OnModuleInit } from '@nestjs/common';
import QRCode from 'qrcode';
import type { Response } from 'express';
import {
  DEFAULT_SHARE_MESSAGE,
  emailKey,
  localeFormats,
  memberBillFormats,
  referralLinkUrl,
  welcomeOfferWording,
  referrerRewardWording,
  DEFAULT_REFERRER_REWARD,
} from '@grove/contracts';
import { AppConfig } from '../../platform/config/app-config';
import { JobsService } from '../../platform/jobs/jobs.service';
import { memberScope, type BusinessScope } from '../../platform/database/business-scope';
import { FraudSignalsService } from '../../referral/fraud/fraud-signals.service';
import { MemberAuthService } from '../member-auth/member-auth.service';
import { MemberSessionMissingException } from '../member-auth/member-auth.exceptions';
import {
  MemberTokensRepository,
  type MemberSessionRow,
} from '../member-auth/member-tokens.repository';
import { firstName, MemberEmails } from '../member-emails/member-emails.service';
import { LinkRequestThrottle } from './link-request-throttle';
import { MemberLinkMissingException } from './member-page.exceptions';
import { memberPrice, projections } from '../../membership/pricing/price';
import { savedSoFarCents } from './member-price';
import type { MemberPageDto } from './dto/member-page-reply.dto';
import { MemberPageRepository, type MemberFacts } from './member-page.repository';
import { ReferrerRewardService } from '../../membership/referrer-reward/referrer-reward.service';
import { MemberNextCharges } from './member-next-charges';

/** Ledger lines the page shows (newest first). */
const LEDGER_LINES = 50;

/** The pg-boss queue of member page link requests (one job per request). */
export const MEMBER_LINK_REQUEST_QUEUE = 'member-page.link-request';

/** A member page link request: the email key asked for (contracts' `emailKey`). */
interface LinkRequestJob {
  emailKey: string;
}

/** A referral link's QR code: SVG, Grove green, drawn by `qrcode`. */
function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
    color: { dark: '#123d27', light: '#ffffff' },
  });
}

/**
 * The member page (issue 15): what a signed-in member sees, their sign-in from a magic link and
 * the public "send me a new link".
 */
@Injectable()
export class MemberPageService implements OnModuleInit {
  constructor(
    private readonly pages: MemberPageRepository,
    private readonly auth: MemberAuthService,
    private readonly tokens: MemberTokensRepository,
    private readonly emails: MemberEmails,
    private readonly throttle: LinkRequestThrottle,
    private readonly fraud: FraudSignalsService,
    private readonly config: AppConfig,
    private readonly jobs: JobsService,
    private readonly rewards: ReferrerRewardService,
    private readonly nextCharges: MemberNextCharges,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<LinkRequestJob>(
      { name: MEMBER_LINK_REQUEST_QUEUE, retryLimit: 3, retryDelay: 5, retryBackoff: true },
      (data, job) => this.sendLinks(data.emailKey, job.id),
    );
  }

  /**
   * The page of the session's member (`page`), the opening remembered as a keyed digest of the
   * client address (`FraudSignalsService.recordMemberPageOpen`), so a join through this member's
   * link from the same address is flagged for the owner. Both renderings (the JSON
   * `GET /api/member/me` and the HTML `GET /member`) open it here.
   * @throws MemberSessionMissingException 401 when the member no longer exists
   */
  async open(session: MemberSessionRow, clientAddress: string): Promise<MemberPageDto> {
    const scope = memberScope(session);
    await this.fraud.recordMemberPageOpen(scope, session.memberId, clientAddress);
    return this.page(scope, session.memberId);
  }

  /**
   * Everything the member page shows (`MemberPageDto`, cents): referral link URL
   * (`<PUBLIC_ORIGIN>/referral/<code>`) and its QR code (SVG), the owner's share message (or the
   * default, placeholders unfilled) and the friend's welcome offer worded (its `{offer}`), price now vs membership price, savings so far
   * (`savedSoFarCents`), friends with status, the next friends' projection and the ledger; for a
   * member billed on the business's Stripe, what Stripe will charge next (`stripeNextCharge`, from
   * the upcoming invoice, waited for at most `MEMBER_PAGE_CHARGE_BUDGET_MS`, else left out).
   * @throws MemberSessionMissingException 401 when the member no longer exists
   */
  async page(scope: BusinessScope, memberId: string): Promise<MemberPageDto> {
    const member = await this.pages.member(scope, memberId);
    if (!member) throw new MemberSessionMissingException();
    const [branches, ledger, stripeCharge] = await Promise.all([
      this.pages.friends(scope, memberId),
      this.pages.ledger(scope, memberId),
      // Read beside the page's own queries, within its budget (MEMBER_PAGE_CHARGE_BUDGET_MS).
      member.managedBy === 'Stripe' ? this.nextCharges.upcoming(scope, memberId) : null,
    ]);
    const price = memberPrice(member);
    const referralUrl = member.linkCode
      ? referralLinkUrl(this.config.publicOrigin, member.linkCode)
      : null;
    return {
      businessName: member.businessName,
      businessLocale: member.businessLocale,
      memberFirstName: firstName(member.name),
      referralUrl,
      referralQrSvg: referralUrl ? await qrSvg(referralUrl) : null,
      shareMessage: member.shareMessage ?? DEFAULT_SHARE_MESSAGE,
      welcomeOffer: welcomeOfferWording(member.welcomeOffer, localeFormats(member.businessLocale)),
      membershipPriceCents: member.membershipPriceCents,
      priceNowCents: price.priceNowCents,
      discountPerBranchCents: price.discountPerBranchCents,
      // A Mindbody or Stripe member's reward is null (`memberReferrerReward`): their price follows
      // that integration's discounts, whatever the business's reward; in the currency of their bill.
      rewardPerFriend:
        referrerRewardWording(
          member.referrerReward ?? DEFAULT_REFERRER_REWARD,
          memberBillFormats(member.businessLocale, member.billCurrency),
          'member',
          price.discountPerBranchCents,
        ) ?? '',
      rewardsLeft: await this.rewardsLeft(scope, member),
      managedBy: member.managedBy,
      billCurrency: member.billCurrency,
      ...(member.nextCharge ? { nextCharge: member.nextCharge } : {}),
      ...(stripeCharge
        ? {
            stripeNextCharge: {
              amountCents: stripeCharge.amountCents,
              currency: stripeCharge.currency,
              at: stripeCharge.at.toISOString(),
            },
          }
        : {}),
      savedSoFarCents: savedSoFarCents(ledger, new Date()),
      branches,
      projections: projections(price),
      ledger: ledger.slice(-LEDGER_LINES).reverse(),
    };
  }

  /**
   * What is left under the business's most friends rewarded a year, in the member's words
   * (`ReferrerRewardService.rewardsLeft`, the one source the referrer emails share,
   * docs/product.md#referrer-reward). Null without a cap (no query then) and for a Mindbody member.
   */
  private async rewardsLeft(scope: BusinessScope, member: MemberFacts): Promise<string | null> {
    const most = member.rule?.maxBranches;
    if (member.managed || most === null || most === undefined) return null;
    return this.rewards.rewardsLeft(scope, member.memberId);
  }

  /**
   * The member's live referral link as a QR code (SVG, Grove green), drawn by `qrcode`.
   * @throws MemberLinkMissingException 404 no live link
   */
  async qrSvg(scope: BusinessScope, memberId: string): Promise<string> {
    const member = await this.pages.member(scope, memberId);
    if (!member?.linkCode) throw new MemberLinkMissingException();
    return qrSvg(referralLinkUrl(this.config.publicOrigin, member.linkCode));
  }

  /**
   * Signs a member in with a magic link's token (sets the member cookie).
   * @returns the new member session
   * @throws MagicLinkInvalidException 401 unknown, used or expired
   */
  async signIn(token: string, response: Response): Promise<MemberSessionRow> {
    return this.auth.startSession(token, response);
  }

  /** Signs the member out: the session is revoked and its cookie cleared. */
  async signOut(sessionBusinessId: string, sessionId: string, response: Response): Promise<void> {
    await this.auth.endSession(memberScope({ businessId: sessionBusinessId }), sessionId, response);
  }

  /**
   * A new magic link for `email`: every member with that email key (in any business) gets one by
   * email (transactional: sent even when unsubscribed). The caller always gets the same answer:
   * the request is queued as one pg-boss job (`MEMBER_LINK_REQUEST_QUEUE`) whatever the address,
   * so the answer's timing does not tell either, and a crash after the answer cannot lose it (the
   * job is in the database before the answer; issue 31 item 4). The link in the email is on
   * PUBLIC_ORIGIN, whatever Host the request named (issue 24 part 1).
   * @param email one plain mailbox (the DTO's rule, `isValidEmail`)
   * @throws TooManyLinkRequestsException 429 (per client address, per email address)
   */
  async requestLink(email: string, clientAddress: string): Promise<void> {
    const key = emailKey(email);
    await this.throttle.consume(clientAddress, key);
    await this.jobs.send<LinkRequestJob>(MEMBER_LINK_REQUEST_QUEUE, { emailKey: key });
  }

  /**
   * The job: queues a member page link email to every member with email key `key`, keyed by the
   * request (`requestId`, the job's id), so a retried job queues none twice.
   */
  private async sendLinks(key: string, requestId: string): Promise<void> {
    const members = await this.tokens.membersByEmailKey(key);
    for (const member of members) {
      await this.emails.send(
        memberScope(member),
        member.memberId,
        'magic-link',
        {},
        `magic-link:${requestId}:${member.memberId}`,
      );
    }
  }
}
