import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import { LRUCache } from 'lru-cache';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import {
  emailKey,
  joinChannel,
  localeFormats,
  MESSAGES,
  referralLinkUrl,
  type JoinVia,
  welcomeOfferWording,
  referrerRewardWording,
  DEFAULT_REFERRER_REWARD,
} from '@grove/contracts';
import { AuditLog } from '../../platform/audit/audit-log';
import { AppConfig } from '../../platform/config/app-config';
import { DEFAULT_PAGE_SIZE } from '../../platform/common/page-query.dto';
import { MemberNotFoundException } from '../../membership/members/members.exceptions';
import type { BusinessScope } from '../../platform/database/business-scope';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MembersRepository } from '../../membership/members/members.repository';
import { FraudSignalsService } from '../fraud/fraud-signals.service';
import type { JoinReferralDto } from './dto/join-referral.dto';
import type { CreateReferralLinkDto, ListReferralLinksQueryDto } from './dto/referral-link.dto';
import type {
  JoinReferralReplyDto,
  ReferralInfoDto,
  ReferralLinkDto,
  ReferralLinkRowsPageDto,
} from './dto/referral-link-reply.dto';
import { newReferralCode } from './referral-code';
import { QrPngDrawer } from './qr-png-drawer';
import { ReferralLinksRepository, type LiveLink } from './referral-links.repository';
import { JOIN_FOLLOW_UP_QUEUE, type JoinFollowUpJob } from '../prospects/prospects.service';
import { LifecycleService } from '../../membership/lifecycle/lifecycle.service';
import {
  ReferralLinkMissingException,
  ReferralLinkNotFoundException,
} from './referrals.exceptions';

/** What a code must look like before the database is asked (base64url, 16–64 characters). */
const CODE_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

const DAY_MS = 86_400_000;

/** The first word of a member's name, for 'Referred by …' on the join page. */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

/**
 * What the join page shows of a live link: the business, the referrer's first name, the
 * friend's welcome offer worded in the business's money format (docs/product.md#welcome-offer)
 * and what the referrer gets (docs/product.md#referrer-reward; the same for every member of the
 * business, so it tells nothing about this one).
 */
function joinPageInfo(link: LiveLink): ReferralInfoDto {
  return {
    businessName: link.businessName,
    referrerFirstName: firstName(link.memberName),
    welcomeOffer: welcomeOfferWording(link.welcomeOffer, localeFormats(link.businessLocale)),
    referrerReward:
      referrerRewardWording(
        link.referrerReward ?? DEFAULT_REFERRER_REWARD,
        localeFormats(link.businessLocale),
        'friend',
      ) ?? 'a lower membership price',
  };
}

/**
 * Referral links (owner side) and the public referral join (docs/product.md#referral-links Referral Links, Referral join
 * page; docs/product.md#states). Owner methods take the business id from the session; the public methods derive the
 * business from the code alone, so nothing a friend sends can reach another business.
 */
@Injectable()
export class ReferralsService {
  /**
   * The QR images last made, by format and link URL: a 1024 px PNG costs a thread about 0.4 s to
   * draw (qrcode + pngjs, measured 435 ms on this project's 2-core machine; drawn on a worker
   * thread, `QrPngDrawer`), and a link's image never changes. At most 200 images (a PNG is about
   * 8 KB), so under 2 MB.
   */
  private readonly qrImages = new LRUCache<string, Buffer>({ max: 200 });

  constructor(
    private readonly links: ReferralLinksRepository,
    private readonly members: MembersRepository,
    private readonly config: AppConfig,
    private readonly fraud: FraudSignalsService,
    private readonly jobs: JobsService,
    private readonly qrPng: QrPngDrawer,
    private readonly lifecycle: LifecycleService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * One page of the Referral Links screen: each member (tree) with its live link or null.
   */
  async list(
    scope: BusinessScope,
    query: ListReferralLinksQueryDto,
  ): Promise<ReferralLinkRowsPageDto> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const { rows, total } = await this.links.findPage(scope, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
      search: query.search || undefined,
    });
    const origin = this.config.publicOrigin;
    return {
      items: rows.map((row) => ({
        memberId: row.memberId,
        memberName: row.memberName,
        memberEmail: row.memberEmail,
        link: row.link ? this.toLink(row.link, origin) : null,
      })),
      total,
      page,
      pageSize,
    };
  }

  /**
   * Gives the member a link (docs/product.md#calls generateReferralLink). Idempotent: a live link is returned
   * as it is; an expired one is revoked and replaced. Managed (Mindbody) members may have links.
   * @throws MemberNotFoundException 404 when the member is not in this business
   */
  create(
    scope: BusinessScope,
    memberId: string,
    body: CreateReferralLinkDto | undefined,
  ): Promise<ReferralLinkDto> {
    return this.withLockedMember(scope, memberId, async (manager, member) => {
      const current = await this.links.findUnrevoked(scope, manager, memberId);
      if (current && (current.expiresAt === null || current.expiresAt.getTime() > Date.now())) {
        return this.toLink(current, this.config.publicOrigin);
      }
      return this.issue(scope, manager, member, body);
    });
  }

  /**
   * Replaces the member's link with a new code, in one transaction: the old code stops working at
   * once (a member without a link simply gets one).
   * @throws MemberNotFoundException 404
   */
  rotate(
    scope: BusinessScope,
    memberId: string,
    body: CreateReferralLinkDto | undefined,
  ): Promise<ReferralLinkDto> {
    return this.withLockedMember(scope, memberId, (manager, member) =>
      this.issue(scope, manager, member, body),
    );
  }

  /**
   * The member's live link, or null (the member profile). The caller has checked that the member
   * is this business's; another business's member simply has no link here.
   */
  async liveLink(scope: BusinessScope, memberId: string): Promise<ReferralLinkDto | null> {
    const link = await this.links.findLive(scope, memberId);
    return link ? this.toLink(link, this.config.publicOrigin) : null;
  }

  /**
   * Revokes the member's link (docs/product.md#calls removeReferral); no link is not an error.
   * Records link_revoked (docs/architecture.md#lifecycle-facts) and, when a link was live,
   * 'link.revoked' in the audit log (docs/product.md#audit-log), in the same transaction.
   * @throws MemberNotFoundException 404
   */
  async revoke(scope: BusinessScope, memberId: string): Promise<void> {
    await this.withLockedMember(scope, memberId, async (manager, member) => {
      const previous = await this.links.findUnrevoked(scope, manager, memberId);
      const revoked = await this.links.revokeForMember(scope, manager, memberId);
      if (previous)
        await this.audit.record(scope, manager, {
          kind: 'link.revoked',
          member,
          before: { code: previous.code },
          after: null,
        });
      await this.lifecycle.recordFacts(
        scope,
        revoked.map((linkId) => ({
          kind: 'link_revoked',
          eventKey: `link_revoked:${linkId}`,
          memberId,
          referralLinkId: linkId,
        })),
        manager,
      );
    });
  }

  /**
   * The member's live referral link as a QR code for a front-desk poster: SVG (vector, Grove
   * green) or a 1024-pixel PNG, drawn by the `qrcode` library (the PNG on a worker thread).
   * @returns the image and the link's code (the download names the file after it)
   * @throws MemberNotFoundException 404, ReferralLinkMissingException 404 when there is no live link
   */
  async qrCode(
    scope: BusinessScope,
    memberId: string,
    format: 'svg' | 'png',
  ): Promise<{ image: Buffer; code: string }> {
    const link = await this.withLockedMember(scope, memberId, (manager) =>
      this.links.findUnrevoked(scope, manager, memberId),
    );
    if (!link || (link.expiresAt !== null && link.expiresAt.getTime() <= Date.now()))
      throw new ReferralLinkMissingException();
    const { url } = this.toLink(link, this.config.publicOrigin);
    const options = {
      margin: 2,
      errorCorrectionLevel: 'M' as const,
      color: { dark: '#123d27', light: '#ffffff' },
    };
    const key = `${format} ${url}`;
    let image = this.qrImages.get(key);
    if (!image) {
      image =
        format === 'svg'
          ? Buffer.from(await QRCode.toString(url, { ...options, type: 'svg' }), 'utf8')
          : await this.qrPng.draw(url, { ...options, width: 1024 });
      this.qrImages.set(key, image);
    }
    return { image, code: link.code };
  }

  /**
   * What the join page shows for a live code (public: no `BusinessScope`, the business is the
   * code's). Counts the opening in `join_page_visits` (per link and UTC day) once per visitor
   * per link per day (issue 24 part 6: the visitor known only by a keyed digest of the day, the
   * code and the client address, `FraudSignalsService.joinPageVisitor`, kept for the day) in the
   * same statement that reads the link.
   * The visit is counted under `channel` (issue 33: the link's `?via=`, docs/product.md#referral-join).
   * @param clientAddress `req.ip`; without one every opening counts
   * @param channel `joinChannel` of the link's `?via=` (default `direct`)
   * @throws ReferralLinkNotFoundException 404 (unknown, revoked or expired)
   */
  async info(
    code: string,
    clientAddress?: string,
    channel: JoinVia = 'direct',
  ): Promise<ReferralInfoDto> {
    const visitor = clientAddress ? this.fraud.joinPageVisitor(code, clientAddress) : null;
    const link = CODE_SHAPE.test(code)
      ? await this.links.openJoinPage(code, visitor, channel)
      : null;
    if (!link) throw new ReferralLinkNotFoundException();
    return joinPageInfo(link);
  }

  /**
   * What the join page shows for a live code, as {@link info}, without counting a visit: for the
   * pages that answer the join form's POST (referrals/join-page), which are not new openings.
   * @throws ReferralLinkNotFoundException 404 (unknown, revoked or expired)
   */
  async infoWithoutVisit(code: string): Promise<ReferralInfoDto> {
    const link = CODE_SHAPE.test(code) ? await this.links.findLiveByCode(code) : null;
    if (!link) throw new ReferralLinkNotFoundException();
    return joinPageInfo(link);
  }

  /**
   * A friend joins through a code (public; docs/product.md#calls `/api/referral`, docs/product.md#screens success 'Successfully
   * registered!'). Every friend of a live code gets the same answer, whoever they are (issue 11:
   * public endpoints reveal nothing about members): a stranger is queued as a prospect of the
   * link's business and member (the same friend twice is one prospect); an email that belongs to a
   * member of that business, or the referrer's own, is not queued but flagged for the owner
   * (`GET /api/prospects/flags`). Fraud signals (issue 15 part 4: disposable domain, former
   * member, close to the referrer, a burst on the link, the client address that opened the
   * referrer's member page) queue the friend with flags the owner sees. One statement decides and
   * writes (`ReferralLinksRepository.join`), so every outcome takes the same path through the
   * database; it takes no `BusinessScope`, the business comes from the code inside that
   * statement. A queued friend sets off "{friend} joined with your link" to the referrer and,
   * with automatic approval on and no signal, its approval: a `referral.joined` job queued in
   * the join's own transaction (`ProspectsService.followUpJoin`), so neither is lost when the
   * process dies right after the join, and the answer does not wait for them. A
   * filled honeypot is answered as success and stores nothing. A new prospect keeps the channel
   * that brought the friend (`body.via`, anything not in `JOIN_VIAS` → `direct`), as does its
   * prospect_joined fact (Analytics' joins by channel).
   * @param clientAddress `req.ip` (compared with member page openings as a keyed digest only)
   * @returns `{ message: 'Successfully registered!' }`
   * @throws ReferralLinkNotFoundException 404 (unknown, revoked or expired code)
   */
  async join(
    code: string,
    body: JoinReferralDto,
    clientAddress?: string,
  ): Promise<JoinReferralReplyDto> {
    const success = { message: MESSAGES.referralSuccess };
    if (body.website && body.website.trim() !== '') return success;
    if (!CODE_SHAPE.test(code)) throw new ReferralLinkNotFoundException();
    const screening = this.fraud.screenJoin(body.email, clientAddress);
    const found = await this.links.transaction(async (manager) => {
      const outcome = await this.links.join(
        code,
        {
          name: body.name,
          email: body.email,
          emailKey: emailKey(body.email),
          channel: joinChannel(body.via),
        },
        screening,
        manager,
      );
      // Every found join queues its follow-up in its own transaction (same work, same timing,
      // for every friend); a repeat of one prospect is one job (its id is the prospect's).
      if (outcome) {
        const { prospectId } = outcome;
        await this.jobs.send<JoinFollowUpJob>(
          JOIN_FOLLOW_UP_QUEUE,
          {
            businessId: outcome.businessId,
            prospectId,
            autoApprove: outcome.autoApprove,
          },
          { manager, ...(prospectId ? { id: prospectId } : {}) },
        );
      }
      return outcome !== null;
    });
    if (!found) throw new ReferralLinkNotFoundException();
    // The worker is not woken: it finds the follow-up at its next poll (within 2 s), so the
    // work a queued friend sets off (the email) does not land on the requests right after this
    // one, where a stopwatch could tell it from a flagged join's (bench:join-timing).
    return success;
  }

  /** Runs `work` in a transaction after locking the member (404 when not in this business). */
  private withLockedMember<T>(
    scope: BusinessScope,
    memberId: string,
    work: (manager: EntityManager, member: { id: string; name: string }) => Promise<T>,
  ): Promise<T> {
    return this.links.transaction(async (manager) => {
      const member = isUUID(memberId)
        ? await this.members.findForUpdate(scope, manager, memberId)
        : null;
      if (!member) throw new MemberNotFoundException();
      return work(manager, { id: member.id, name: member.name });
    });
  }

  /**
   * Revokes the member's current link (if any) and inserts a new one. Member already locked.
   * Records link_rotated when a link was replaced, else link_created (docs/architecture.md#lifecycle-facts),
   * and the same in the audit log ('link.rotated' old code → new, or 'link.created'; docs/product.md#audit-log).
   */
  private async issue(
    scope: BusinessScope,
    manager: EntityManager,
    member: { id: string; name: string },
    body: CreateReferralLinkDto | undefined,
  ): Promise<ReferralLinkDto> {
    const memberId = member.id;
    const previous = await this.links.findUnrevoked(scope, manager, memberId);
    const replaced = await this.links.revokeForMember(scope, manager, memberId);
    const days = body?.expiresInDays;
    const link = await this.links.insert(scope, manager, {
      memberId,
      code: newReferralCode(),
      expiresAt: days ? new Date(Date.now() + days * DAY_MS) : null,
    });
    const kind = replaced.length > 0 ? 'link_rotated' : 'link_created';
    await this.lifecycle.recordFacts(
      scope,
      [{ kind, eventKey: `${kind}:${link.id}`, memberId, referralLinkId: link.id }],
      manager,
    );
    const expires = link.expiresAt ? link.expiresAt.toISOString() : null;
    await this.audit.record(scope, manager, {
      kind: previous ? 'link.rotated' : 'link.created',
      member,
      before: previous ? { code: previous.code } : null,
      after: { code: link.code, expiresAt: expires },
    });
    return this.toLink(link, this.config.publicOrigin);
  }

  private toLink(
    link: { code: string; createdAt: Date; expiresAt: Date | null },
    origin: string,
  ): ReferralLinkDto {
    return {
      code: link.code,
      url: referralLinkUrl(origin, link.code),
      createdAt: link.createdAt.toISOString(),
      expiresAt: link.expiresAt ? link.expiresAt.toISOString() : null,
    };
  }
}
