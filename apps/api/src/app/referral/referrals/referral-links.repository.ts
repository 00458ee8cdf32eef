import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { PreparedReads, preparedStatement } from '../../platform/database/prepared-query';
import { pageOfRows } from '../../platform/database/page-rows';
import { likeSubstring } from '../../platform/database/text-filter';
import { runTransaction } from '../../platform/database/transaction';
import type { BusinessScope } from '../../platform/database/business-scope';
import { MembersRepository, memberSearch } from '../../membership/members/members.repository';
import {
  BLOCKING_JOIN_SIGNALS,
  businessLocale,
  type BusinessLocale,
  type JoinVia,
  type ReferrerRewardFields,
  type WelcomeOffer,
} from '@grove/contracts';
import type { JoinScreening } from '../fraud/fraud-signals.service';
import { ReferralLinkEntity } from './referral-link.entity';
import {
  FACT_COLUMNS,
  ON_EVENT_KEY,
  countVisitsFrom,
} from '../../membership/lifecycle/lifecycle.repository';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';

/** A member (tree) with its live referral link, if any: one row of the Referral Links screen. */
export interface MemberLinkSummary {
  memberId: string;
  memberName: string;
  memberEmail: string;
  link: { code: string; createdAt: Date; expiresAt: Date | null } | null;
}

/** A live link found by its code, with what the join needs to know about its member and business. */
export interface LiveLink {
  linkId: string;
  businessId: string;
  businessName: string;
  memberId: string;
  memberName: string;
  memberEmailKey: string;
  memberManaged: boolean;
  /** The business's welcome offer for the friend (`businesses.welcome_offer`), null for none. */
  welcomeOffer: WelcomeOffer | null;
  /** The business's reward for referrers (`businesses.referrer_reward`), null for the ongoing discount. */
  referrerReward: ReferrerRewardFields | null;
  /** The business's locale (the offer's money format). */
  businessLocale: BusinessLocale;
}

interface LinkPageSqlRow {
  id: string;
  name: string;
  email: string;
  code: string | null;
  link_created_at: Date | null;
  expires_at: Date | null;
  total: number;
}

interface LiveLinkSqlRow {
  id: string;
  business_id: string;
  business_name: string;
  member_id: string;
  member_name: string;
  member_email_key: string;
  mindbody_client_id: string | null;
  welcome_offer: WelcomeOffer | null;
  referrer_reward: ReferrerRewardFields | null;
  country: string;
  time_zone: string | null;
}

/** The signals that keep a join out of `prospects` (`BLOCKING_JOIN_SIGNALS`), as an SQL array. */
const BLOCKING = `ARRAY[${BLOCKING_JOIN_SIGNALS.map((signal) => `'${signal}'`).join(', ')}]`;

/** What a join through a live code did (`ReferralLinksRepository.join`). */
export interface JoinOutcome {
  /** The business of the link. */
  businessId: string;
  /** The business's automatic approval setting at the join (`businesses.auto_approve_prospects`). */
  autoApprove: boolean;
  /** The prospect the friend is (or already was); null when the join went to 'Flagged joins'. */
  prospectId: string | null;
}

/** SQL condition of a live link `l`: not revoked, not expired. */
const LIVE = liveReferralLink();

/** The live link with code `$1`, its member and business (`LiveLinkSqlRow`). */
const LIVE_LINK_BY_CODE = `SELECT l.id, l.business_id, b.name AS business_name, m.id AS member_id, m.name AS member_name,
    m.email_key AS member_email_key, m.mindbody_client_id, b.welcome_offer, b.referrer_reward, b.country, b.time_zone
  FROM members m
  JOIN referral_links l ON l.member_id = m.id AND l.business_id = m.business_id
  JOIN businesses b ON b.id = l.business_id
  WHERE l.code = $1 AND ${LIVE}`;

const toLiveLink = (row: LiveLinkSqlRow | undefined): LiveLink | null =>
  row
    ? {
        linkId: row.id,
        businessId: row.business_id,
        businessName: row.business_name,
        memberId: row.member_id,
        memberName: row.member_name,
        memberEmailKey: row.member_email_key,
        memberManaged: row.mindbody_client_id !== null,
        welcomeOffer: row.welcome_offer,
        referrerReward: row.referrer_reward,
        businessLocale: businessLocale(row.country, row.time_zone),
      }
    : null;

/**
 * The text of the Referral Links page statement: `$1` business, `$2` page size, `$3` offset and,
 * with a search, `$4` the LIKE pattern.
 */
function linkPageText(searching: boolean): string {
  const filter = searching ? `AND ${memberSearch('$4')}` : '';
  const total = searching
    ? `(SELECT count(*)::int FROM members m WHERE m.business_id = $1 ${filter})`
    : `(SELECT member_count FROM businesses WHERE id = $1)`;
  return `SELECT m.id, m.name, m.email, l.code, l.created_at AS link_created_at, l.expires_at, ${total} AS total
     FROM (SELECT m.id, m.name, m.email, m.created_at FROM members m
           WHERE m.business_id = $1 ${filter}
           ORDER BY m.created_at, m.id LIMIT $2 OFFSET $3) m
     LEFT JOIN LATERAL (
       SELECT l.code, l.created_at, l.expires_at FROM referral_links l
       WHERE l.member_id = m.id AND l.business_id = $1 AND ${LIVE} OFFSET 0) l ON true
     ORDER BY m.created_at, m.id`;
}

/** The Referral Links page statement without a search (prepared once per connection). */
const LINK_PAGE = preparedStatement(linkPageText(false));
/** The Referral Links page statement with a search (planned for each pattern). */
const LINK_SEARCH_PAGE = linkPageText(true);

/**
 * The only way to the `referral_links` table. Every owner-side method takes the session's
 * `BusinessScope` first and filters on its business id; the public flows (`findLiveByCode` and
 * `join`) take no scope: the business comes from the code, resolved inside one statement. Methods that change data take the transaction's EntityManager.
 */
@Injectable()
export class ReferralLinksRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: PreparedReads,
    private readonly members: MembersRepository,
  ) {}

  /**
   * One page of the business's members (trees, oldest first) with their live link, and the number
   * of matching members, in ONE statement: the page of members is cut first (a walk of
   * members_business_created_idx), then each of its members' live link is looked up through
   * referral_links_live_member_key (a LATERAL subquery fenced by OFFSET 0, so no plan hash-joins
   * the business's links). Without a search it is a named prepared statement with a generic plan
   * (`PreparedReads`); a search is planned for its pattern.
   */
  async findPage(
    scope: BusinessScope,
    query: { offset: number; limit: number; search?: string },
  ): Promise<{ rows: MemberLinkSummary[]; total: number }> {
    const params: unknown[] = [scope.businessId, query.limit, query.offset];
    if (query.search) params.push(likeSubstring(query.search));
    const rows = await this.reads.query<LinkPageSqlRow>(
      query.search ? LINK_SEARCH_PAGE : LINK_PAGE,
      params,
    );
    // Past the last page: count the matching members on their own.
    return pageOfRows(
      rows,
      query.offset,
      () => this.members.count(scope, query.search),
      (row) => ({
        memberId: row.id,
        memberName: row.name,
        memberEmail: row.email,
        link:
          row.code !== null && row.link_created_at !== null
            ? { code: row.code, createdAt: row.link_created_at, expiresAt: row.expires_at }
            : null,
      }),
    );
  }

  /** The member's live link (not revoked, not expired), or null. */
  async findLive(
    scope: BusinessScope,
    memberId: string,
  ): Promise<{ code: string; createdAt: Date; expiresAt: Date | null } | null> {
    const rows: { code: string; created_at: Date; expires_at: Date | null }[] =
      await this.dataSource.query(
        `SELECT l.code, l.created_at, l.expires_at FROM referral_links l
         WHERE l.business_id = $1 AND l.member_id = $2 AND ${LIVE}`,
        [scope.businessId, memberId],
      );
    const row = rows[0];
    return row ? { code: row.code, createdAt: row.created_at, expiresAt: row.expires_at } : null;
  }

  /** The member's link that is not revoked (it may have expired), or null. */
  findUnrevoked(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
  ): Promise<ReferralLinkEntity | null> {
    return manager
      .getRepository(ReferralLinkEntity)
      .findOne({ where: { businessId: scope.businessId, memberId, revokedAt: IsNull() } });
  }

  /** Inserts a live link for a member of this business. */
  insert(
    scope: BusinessScope,
    manager: EntityManager,
    link: { memberId: string; code: string; expiresAt: Date | null },
  ): Promise<ReferralLinkEntity> {
    return manager
      .getRepository(ReferralLinkEntity)
      .save({ ...link, businessId: scope.businessId, revokedAt: null });
  }

  /** Revokes the member's unrevoked link, if any. @returns the ids of the links revoked (0 or 1) */
  async revokeForMember(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
  ): Promise<string[]> {
    const [rows] = (await manager.query(
      `UPDATE referral_links SET revoked_at = now()
       WHERE business_id = $1 AND member_id = $2 AND revoked_at IS NULL RETURNING id`,
      [scope.businessId, memberId],
    )) as [{ id: string }[], number];
    return rows.map((row) => row.id);
  }

  /**
   * The live link with this code, its member and business (public join page). With `manager`
   * (inside a join's transaction) the member row is key-share locked and the link row share
   * locked, in that order, so a concurrent rotate, revoke or tree removal (which lock the member
   * first) either waits for the join or makes it see the link as gone. Public: no `BusinessScope`;
   * the business is the link's, read in the same statement.
   */
  async findLiveByCode(code: string, manager?: EntityManager): Promise<LiveLink | null> {
    const lock = manager ? 'FOR KEY SHARE OF m FOR SHARE OF l' : '';
    const rows: LiveLinkSqlRow[] = await (manager ?? this.dataSource.manager).query(
      `${LIVE_LINK_BY_CODE} ${lock}`,
      [code],
    );
    return toLiveLink(rows[0]);
  }

  /**
   * The join page opens: the live link with this code (as `findLiveByCode`) and, when there is
   * one and this visitor has not opened it yet today (UTC), one more visit of it today in
   * `join_page_visits` (docs/architecture.md#lifecycle-facts), in ONE statement (issue 24 part 6:
   * once per visitor per link per day). The visitor is known only by a keyed digest
   * (`join_page_visitors`, the link's rows of earlier days deleted by the same statement); an
   * unknown, revoked or expired code counts nothing. Public: no `BusinessScope`; the business is
   * the link's.
   * @param visitorDigest `FraudSignalsService.joinPageVisitor` (32 bytes), or null when the
   *   client address is unknown (every opening then counts)
   * @param channel the channel the visit is counted under (`joinChannel` of the link's `?via=`);
   *   a visitor's first opening of the day decides it
   */
  async openJoinPage(
    code: string,
    visitorDigest: Buffer | null,
    channel: JoinVia = 'direct',
  ): Promise<LiveLink | null> {
    const today = `(now() AT TIME ZONE 'UTC')::date`;
    const rows: LiveLinkSqlRow[] = await this.dataSource.query(
      `WITH live AS (${LIVE_LINK_BY_CODE}),
         swept AS (
           DELETE FROM join_page_visitors v USING live
           WHERE v.referral_link_id = live.id AND v.day < ${today}
         ),
         seen AS (
           INSERT INTO join_page_visitors (referral_link_id, day, visitor_digest)
           SELECT id, ${today}, $2 FROM live WHERE $2::bytea IS NOT NULL
           ON CONFLICT DO NOTHING
           RETURNING referral_link_id
         ),
         visit AS (${countVisitsFrom(
           `(SELECT business_id, id AS link_id, $3::text AS channel FROM live
              WHERE $2::bytea IS NULL OR EXISTS (SELECT 1 FROM seen))`,
         )})
       SELECT * FROM live`,
      [code, visitorDigest, channel],
    );
    return toLiveLink(rows[0]);
  }

  /**
   * A friend's join through a code, decided and written in ONE statement so that every outcome
   * runs the same statement with the same lookups (issue 11: a stopwatch must not tell a member
   * from a stranger). The live link's member is key-share locked and the link share locked (the
   * order `findLiveByCode` documents); every check always runs and yields the join's signals
   * (issue 15 part 4; docs/product.md#prospective-members), a sorted set of:
   * - 'already_member': the email key is another member's of the link's business;
   * - 'self_referral': it is the referrer's own;
   * - 'disposable_email': `screening.disposableEmail` (mailchecker's list, checked before);
   * - 'former_member': a member of this business with that key has ended (Mindbody cancellation,
   *   or a `member_ended` fact in `lifecycle_facts`), or a removed member had it (`former_members`);
   * - 'similar_to_referrer': not the referrer's email, but the name is close to theirs (pg_trgm
   *   similarity ≥ 0.6, case ignored) or the email's local part (before '@' and any '+tag') is
   *   the same as theirs or close to it (similarity ≥ 0.6);
   * - 'join_burst': with this one, at least `burstJoins` joins on the link's member within
   *   `burstWindowSeconds` (prospects created and flagged attempts, dismissed ones included);
   * - 'member_page_address': the referrer's member page was opened from the same client digest
   *   within `memberPageOpenRetentionDays`.
   * Then exactly one of:
   * - no 'already_member' nor 'self_referral': the friend is queued in `prospects` with the other
   *   signals as `flags` (a repeat stays one prospect, counts in `join_attempts` and adds its
   *   flags); an ordinary prospect also when the referrer is Mindbody-managed (the owner
   *   approves it as any, issue 22: Grove owns the referral graph);
   * - otherwise: an open `join_flags` row of that business and email gets every signal as
   *   reasons (merged into its sorted set), counting repeats (`attempts`, `last_attempt_at`);
   *   nothing is queued.
   * A new prospect (not a repeat, not a flag) is recorded as a prospect_joined fact (key
   * `prospect_joined:<prospect id>`, with the link) by the same statement
   * (docs/architecture.md#lifecycle-facts).
   * Public: it takes no `BusinessScope`; the business is the link's, resolved from the code inside
   * this one statement.
   * @param friend name and email as typed (trimmed), `emailKey` = `emailKey(email)`, and the
   *   channel that brought them (`joinChannel`): kept on a new prospect and its prospect_joined
   *   fact (a repeat keeps the first join's)
   * @param screening the checks made before (`FraudSignalsService.screenJoin`)
   * @param manager the join's transaction (its follow-up job is queued in it too)
   * Every outcome reads back the same columns (null where they do not apply).
   * @returns null when the code is unknown, revoked or expired (nothing written); else the link's
   *   business, its automatic approval setting, and the prospect when the friend was queued (new or
   *   repeat)
   */
  async join(
    code: string,
    friend: { name: string; email: string; emailKey: string; channel: JoinVia },
    screening: JoinScreening,
    manager: EntityManager,
  ): Promise<JoinOutcome | null> {
    const { settings } = screening;
    const rows: {
      found: boolean;
      prospect_id: string | null;
      business_id: string | null;
      auto_approve: boolean | null;
    }[] = await manager.query(
      `WITH link AS (
         SELECT l.business_id, l.id AS link_id, m.id AS member_id, m.name AS member_name,
           m.email_key AS member_email_key, m.mindbody_client_id, m.discount_cents
         FROM members m
         JOIN referral_links l ON l.member_id = m.id AND l.business_id = m.business_id
         WHERE l.code = $1 AND ${LIVE}
         FOR KEY SHARE OF m FOR SHARE OF l
       ), verdict AS (
         SELECT link.*, ARRAY(SELECT r FROM unnest(ARRAY[
             CASE WHEN same.id IS NOT NULL THEN 'already_member' END,
             CASE WHEN link.member_email_key = $4 THEN 'self_referral' END,
             CASE WHEN $5::boolean THEN 'disposable_email' END,
             CASE WHEN same.ended OR EXISTS (
               SELECT 1 FROM former_members f WHERE f.business_id = link.business_id
                 AND f.email_digest = sha256(convert_to(link.business_id::text || ':' || $4, 'UTF8'))
             ) THEN 'former_member' END,
             CASE WHEN link.member_email_key <> $4 AND (
               similarity(lower($2), lower(link.member_name)) >= 0.6
               OR similarity(split_part(split_part($4, '@', 1), '+', 1),
                             split_part(split_part(link.member_email_key, '@', 1), '+', 1)) >= 0.6
             ) THEN 'similar_to_referrer' END,
             CASE WHEN 1 + (
               SELECT count(*) FROM prospects p
               WHERE p.business_id = link.business_id AND p.referring_member_id = link.member_id
                 AND p.email_key <> $4 AND p.created_at > now() - make_interval(secs => $8)
             ) + (
               SELECT count(*) FROM join_flags jf
               WHERE jf.business_id = link.business_id AND jf.referring_member_id = link.member_id
                 AND jf.email_key <> $4 AND jf.last_attempt_at > now() - make_interval(secs => $8)
             ) >= $7 THEN 'join_burst' END,
             CASE WHEN EXISTS (
               SELECT 1 FROM member_page_opens o
               WHERE o.business_id = link.business_id AND o.member_id = link.member_id
                 AND o.client_digest = $6::bytea AND o.opened_at > now() - make_interval(days => $9)
             ) THEN 'member_page_address' END
           ]) AS r WHERE r IS NOT NULL ORDER BY r) AS reasons
         FROM link
         LEFT JOIN LATERAL (
           SELECT x.id, (x.mindbody_cancelled_at IS NOT NULL OR EXISTS (
               SELECT 1 FROM lifecycle_facts lf
               WHERE lf.business_id = link.business_id AND lf.member_id = x.id AND lf.kind = 'member_ended'
             )) AS ended
           FROM members x
           WHERE x.business_id = link.business_id AND x.email_key = $4 AND x.id <> link.member_id
         ) same ON true
       ), queued AS (
         INSERT INTO prospects (business_id, referring_member_id, name, email, email_key, source, flags, channel)
         SELECT business_id, member_id, $2, $3, $4, NULL, reasons, $10::text
         FROM verdict WHERE NOT (reasons && ${BLOCKING})
         ON CONFLICT (business_id, email_key) DO UPDATE SET
           join_attempts = prospects.join_attempts + 1,
           flags = ARRAY(SELECT DISTINCT r FROM unnest(prospects.flags || EXCLUDED.flags) AS r ORDER BY r)
         RETURNING id, flags, source, (xmax = 0) AS created
       ), joined AS (
         INSERT INTO lifecycle_facts (${FACT_COLUMNS}, channel)
         SELECT v.business_id, 'prospect_joined', NULL, v.member_id, v.link_id, q.id, NULL, 'prospect_joined:' || q.id, $10::text
         FROM queued q CROSS JOIN verdict v WHERE q.created
         ${ON_EVENT_KEY}
         RETURNING 1
       ), flagged AS (
         INSERT INTO join_flags (business_id, referring_member_id, name, email, email_key, reasons)
         SELECT business_id, member_id, $2, $3, $4, reasons
         FROM verdict WHERE reasons && ${BLOCKING}
         ON CONFLICT (business_id, email_key) WHERE dismissed_at IS NULL DO UPDATE SET
           referring_member_id = EXCLUDED.referring_member_id,
           name = EXCLUDED.name,
           email = EXCLUDED.email,
           reasons = ARRAY(SELECT DISTINCT r FROM unnest(join_flags.reasons || EXCLUDED.reasons) AS r ORDER BY r),
           attempts = join_flags.attempts + 1,
           last_attempt_at = now()
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM verdict) AS found, (SELECT id FROM queued) AS prospect_id,
         verdict.business_id,
         (SELECT b.auto_approve_prospects FROM businesses b WHERE b.id = verdict.business_id) AS auto_approve
       FROM (SELECT 1) one LEFT JOIN verdict ON true`,
      [
        code,
        friend.name,
        friend.email,
        friend.emailKey,
        screening.disposableEmail,
        screening.clientDigest,
        settings.burstJoins,
        settings.burstWindowSeconds,
        settings.memberPageOpenRetentionDays,
        friend.channel,
      ],
    );
    const row = rows[0];
    if (row?.found !== true || !row.business_id) return null;
    return {
      businessId: row.business_id,
      autoApprove: row.auto_approve === true,
      prospectId: row.prospect_id,
    };
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
