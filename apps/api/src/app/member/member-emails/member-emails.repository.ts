import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  businessLocale,
  type BusinessLocale,
  type ReferrerRewardFields,
  type WelcomeOffer,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';
import { memberReferrerReward } from '../../membership/pricing/price.sql';

/**
 * Where a member email stands (`member_emails.status`); 'invalid_address': not sent, the member's
 * stored address is not one plain mailbox (issue 24 part 2, migration EmailAddressRule);
 * 'sending': claimed by its delivery job just before SMTP; 'uncertain': an attempt began the
 * SMTP conversation and its outcome was never recorded, so it is not sent again (migration
 * MemberEmailSending, docs/decisions/member-emails-at-most-once.md).
 */
export type MemberEmailStatus =
  | 'queued'
  | 'held'
  | 'sending'
  | 'sent'
  | 'outboxed'
  | 'uncertain'
  | 'unsubscribed'
  | 'no_member'
  | 'invalid_address';

/** How a claimed ('sending') email ended. */
export type DeliveredStatus = 'sent' | 'outboxed' | 'invalid_address';

/**
 * The statuses of an email that went out, or may have ('sending', 'uncertain'), for the daily cap
 * and "sent too soon" checks.
 */
export const OUT_OR_GOING_STATUSES = `'sending', 'sent', 'outboxed', 'uncertain'`;

/** Why a member email waits ('held'): docs/product.md#verified-senders. */
export type HeldReason = 'unverified_sender' | 'daily_cap';

/**
 * SQL: the data (jsonb expression `data`) of a new email to member row `m`, with `currency` (ISO
 * 4217, upper case, e.g. 'EUR') added when the member is billed on the business's Stripe: the
 * amounts it carries are then in its subscription's currency (issue 32), recorded with them in
 * the transaction that decided them. `jsonb || NULL` is NULL, so anyone else keeps `data` as is.
 */
const withBillingCurrency = (data: string): string =>
  `COALESCE(${data} || (SELECT jsonb_build_object('currency', upper(s.currency))
     FROM stripe_member_subscriptions s WHERE s.business_id = m.business_id AND s.member_id = m.id),
   ${data})`;

/** One queued member email with what delivery needs (the member's columns null when removed). */
export interface MemberEmailDelivery {
  status: MemberEmailStatus;
  template: string;
  data: Record<string, unknown>;
  origin: string;
  businessName: string;
  /** How the business writes money and dates (its country and time zone). */
  businessLocale: BusinessLocale;
  /**
   * The currency of the amounts in `data` when it is not the business's (ISO 4217, e.g. 'EUR': the
   * member's Stripe subscription's when the email was recorded, issue 32), else null.
   */
  currency: string | null;
  memberId: string;
  memberName: string | null;
  memberEmail: string | null;
  unsubscribeToken: string | null;
  unsubscribed: boolean;
  /** The code of the member's live referral link now (`referral_links`), or null. */
  referralCode: string | null;
  /** The business's share message (placeholders unfilled), or null: the default (docs/product.md#share-message). */
  shareMessage: string | null;
  /** The business's welcome offer for a friend now, or null for none (docs/product.md#welcome-offer). */
  welcomeOffer: WelcomeOffer | null;
  /**
   * The business's reward for referrers as it applies to the member (`memberReferrerReward`): null
   * for the ongoing discount, and for a member billed by Mindbody or on the business's Stripe.
   */
  referrerReward: ReferrerRewardFields | null;
  /** An owner of the business verified their email (docs/product.md#verified-senders). */
  senderVerified: boolean;
}

/** A new member email row. */
export interface NewMemberEmail {
  memberId: string;
  template: string;
  data: object;
  origin: string;
  eventKey: string;
}

/**
 * The only way to `member_emails` and `member_email_subscriptions`. Every method of a business's
 * rows takes its `BusinessScope` first; the public unsubscribe goes by its token alone (the token
 * names one member of one business).
 */
@Injectable()
export class MemberEmailsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records one email event for a member of the scope's business, in `manager`'s transaction; the
   * data gets the member's Stripe currency (`withBillingCurrency`).
   * @returns the new row's id, or null when the event key was already recorded (the email is
   *   already queued or sent) or the member is not the business's
   */
  async insert(
    scope: BusinessScope,
    manager: EntityManager,
    email: NewMemberEmail,
  ): Promise<string | null> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO member_emails (business_id, member_id, template, data, origin, event_key)
       SELECT m.business_id, m.id, $3, ${withBillingCurrency('$4::jsonb')}, $5, $6 FROM members m
        WHERE m.business_id = $1 AND m.id = $2
       ON CONFLICT (business_id, event_key) DO NOTHING
       RETURNING id`,
      [scope.businessId, email.memberId, email.template, email.data, email.origin, email.eventKey],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Records many email events for members of the scope's business in ONE statement, in
   * `manager`'s transaction (as `insert`, row by row).
   * @returns the new rows' ids by member id; an event key already recorded, or a member not the
   *   business's, gets none
   */
  async insertMany(
    scope: BusinessScope,
    manager: EntityManager,
    emails: readonly NewMemberEmail[],
  ): Promise<Map<string, string>> {
    if (emails.length === 0) return new Map();
    const rows: { id: string; member_id: string }[] = await manager.query(
      `INSERT INTO member_emails (business_id, member_id, template, data, origin, event_key)
       SELECT m.business_id, m.id, e.template, ${withBillingCurrency('e.data')}, e.origin, e.event_key
       FROM unnest($2::uuid[], $3::text[], $4::jsonb[], $5::text[], $6::text[])
         AS e(member_id, template, data, origin, event_key)
       JOIN members m ON m.business_id = $1 AND m.id = e.member_id
       ON CONFLICT (business_id, event_key) DO NOTHING
       RETURNING id, member_id`,
      [
        scope.businessId,
        emails.map((email) => email.memberId),
        emails.map((email) => email.template),
        emails.map((email) => JSON.stringify(email.data)),
        emails.map((email) => email.origin),
        emails.map((email) => email.eventKey),
      ],
    );
    return new Map(rows.map((row) => [row.member_id, row.id]));
  }

  /**
   * Reads a member email for delivery, first giving its member an unsubscribe token if they have
   * none (one per member, kept).
   * @returns null when no such email in the scope's business
   */
  async forDelivery(scope: BusinessScope, emailId: string): Promise<MemberEmailDelivery | null> {
    await this.dataSource.query(
      `INSERT INTO member_email_subscriptions (member_id, business_id, unsubscribe_token)
       SELECT m.id, m.business_id, $3 FROM member_emails e
         JOIN members m ON m.id = e.member_id AND m.business_id = e.business_id
        WHERE e.business_id = $1 AND e.id = $2
       ON CONFLICT (member_id) DO NOTHING`,
      [scope.businessId, emailId, randomBytes(32).toString('base64url')],
    );
    const rows: {
      status: MemberEmailStatus;
      template: string;
      data: Record<string, unknown>;
      currency: string | null;
      origin: string;
      business_name: string;
      country: string;
      time_zone: string | null;
      member_id: string;
      name: string | null;
      email: string | null;
      unsubscribe_token: string | null;
      unsubscribed_at: Date | null;
      code: string | null;
      share_message: string | null;
      welcome_offer: WelcomeOffer | null;
      referrer_reward: ReferrerRewardFields | null;
      sender_verified: boolean;
    }[] = await this.dataSource.query(
      `SELECT e.status, e.template, e.data, e.data->>'currency' AS currency, e.origin, b.name AS business_name, b.country, b.time_zone, e.member_id,
              m.name, m.email, s.unsubscribe_token, s.unsubscribed_at, l.code, b.share_message, b.welcome_offer,
              ${memberReferrerReward('m', 'b')} AS referrer_reward,
              b.sender_verified_at IS NOT NULL AS sender_verified
         FROM member_emails e
         JOIN businesses b ON b.id = e.business_id
         LEFT JOIN members m ON m.id = e.member_id AND m.business_id = e.business_id
         LEFT JOIN member_email_subscriptions s ON s.member_id = m.id
         LEFT JOIN referral_links l ON l.member_id = m.id AND l.business_id = e.business_id
              AND ${liveReferralLink()}
        WHERE e.business_id = $1 AND e.id = $2`,
      [scope.businessId, emailId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      status: row.status,
      template: row.template,
      data: row.data,
      origin: row.origin,
      businessName: row.business_name,
      businessLocale: businessLocale(row.country, row.time_zone),
      currency: row.currency,
      memberId: row.member_id,
      memberName: row.name,
      memberEmail: row.email,
      unsubscribeToken: row.unsubscribe_token,
      unsubscribed: row.unsubscribed_at !== null,
      referralCode: row.code,
      shareMessage: row.share_message,
      welcomeOffer: row.welcome_offer,
      referrerReward: row.referrer_reward,
      senderVerified: row.sender_verified,
    };
  }

  /** Makes a queued email wait ('held') for `reason`; it has no job until released. */
  async hold(scope: BusinessScope, emailId: string, reason: HeldReason): Promise<void> {
    await this.dataSource.query(
      `UPDATE member_emails SET status = 'held', held_reason = $3
        WHERE business_id = $1 AND id = $2 AND status = 'queued'`,
      [scope.businessId, emailId, reason],
    );
  }

  /** Member emails of the business delivered since the start of today (UTC), for the daily cap. */
  async deliveredToday(scope: BusinessScope): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS n FROM member_emails
        WHERE business_id = $1 AND status IN ('sent', 'outboxed', 'uncertain')
          AND delivered_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
      [scope.businessId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Sets up to `limit` of the business's waiting emails queued again (oldest first), in
   * `manager`'s transaction (the caller queues their jobs in it).
   * @returns their ids
   */
  async release(scope: BusinessScope, manager: EntityManager, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `WITH released AS (
         UPDATE member_emails SET status = 'queued', held_reason = NULL
          WHERE business_id = $1 AND id IN (
            SELECT id FROM member_emails WHERE business_id = $1 AND status = 'held'
             ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING id)
       SELECT id FROM released`,
      [scope.businessId, limit],
    );
    return rows.map((row) => row.id);
  }

  /** The businesses that have emails waiting (the hourly release). */
  async businessesHolding(): Promise<string[]> {
    const rows: { business_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT business_id FROM member_emails WHERE status = 'held'`,
    );
    return rows.map((row) => row.business_id);
  }

  /** The business's sender state and waiting emails by reason, for the owner's banner. */
  async sending(scope: BusinessScope): Promise<{
    senderVerified: boolean;
    held: Record<HeldReason, number>;
    deliveredToday: number;
  }> {
    const rows: { verified: boolean; unverified: string; capped: string }[] =
      await this.dataSource.query(
        `SELECT b.sender_verified_at IS NOT NULL AS verified,
                count(e.id) FILTER (WHERE e.held_reason = 'unverified_sender') AS unverified,
                count(e.id) FILTER (WHERE e.held_reason = 'daily_cap') AS capped
           FROM businesses b
           LEFT JOIN member_emails e ON e.business_id = b.id AND e.status = 'held'
          WHERE b.id = $1 GROUP BY b.id`,
        [scope.businessId],
      );
    const row = rows[0];
    return {
      senderVerified: row?.verified ?? false,
      held: {
        unverified_sender: Number(row?.unverified ?? 0),
        daily_cap: Number(row?.capped ?? 0),
      },
      deliveredToday: await this.deliveredToday(scope),
    };
  }

  /**
   * Records why a queued email is not sent ('no_member', 'invalid_address', 'unsubscribed'; only a
   * still-queued row changes).
   */
  async markNotSent(
    scope: BusinessScope,
    emailId: string,
    status: 'no_member' | 'invalid_address' | 'unsubscribed',
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE member_emails SET status = $3, delivered_at = now()
        WHERE business_id = $1 AND id = $2 AND status = 'queued'`,
      [scope.businessId, emailId, status],
    );
  }

  /**
   * Claims a queued email for one delivery attempt ('queued' → 'sending'), committed on its own
   * before any SMTP command, so that a later attempt knows one began. `delivered_at` holds when
   * the attempt began until the outcome replaces it ({@link settleAbandoned} reads it).
   * @returns false when the row is not queued (another attempt has it, or it ended)
   */
  async claim(scope: BusinessScope, emailId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE member_emails SET status = 'sending', delivered_at = now()
          WHERE business_id = $1 AND id = $2 AND status = 'queued' RETURNING id)
       SELECT id FROM claimed`,
      [scope.businessId, emailId],
    );
    return rows.length > 0;
  }

  /**
   * Every business's emails still 'sending' `olderThanSeconds` after their attempt began: an
   * attempt that never came back (the process killed on the job's last try), which no retry will
   * settle. They become 'uncertain', as a retry would make them, never sent again
   * (docs/decisions/member-emails-at-most-once.md). A system sweep across businesses, like the
   * retention sweep; each row keeps its business.
   * @param olderThanSeconds how long after its claim a row counts as abandoned (seconds)
   * @returns how many rows were settled
   */
  async settleAbandoned(olderThanSeconds: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH settled AS (
         UPDATE member_emails SET status = 'uncertain'
          WHERE status = 'sending' AND delivered_at < now() - make_interval(secs => $1)
          RETURNING id)
       SELECT id FROM settled`,
      [olderThanSeconds],
    );
    return rows.length;
  }

  /** Puts a claimed email back to 'queued' (the attempt failed where nothing can have been delivered). */
  async unclaim(scope: BusinessScope, emailId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE member_emails SET status = 'queued', delivered_at = NULL
        WHERE business_id = $1 AND id = $2 AND status = 'sending'`,
      [scope.businessId, emailId],
    );
  }

  /**
   * Records how a claimed email ended: `status` ('sent', 'outboxed', 'invalid_address' when the
   * mailer refused the address) or 'uncertain' (found still 'sending' by a later attempt). Only a
   * 'sending' row changes, or an 'uncertain' one to a known outcome.
   */
  async markDelivered(
    scope: BusinessScope,
    emailId: string,
    status: DeliveredStatus | 'uncertain',
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE member_emails SET status = $3, delivered_at = now()
        WHERE business_id = $1 AND id = $2
          AND (status = 'sending' OR (status = 'uncertain' AND $3 <> 'uncertain'))`,
      [scope.businessId, emailId, status],
    );
  }

  /**
   * The members of `memberIds` (of the scope's business) sent or queued a `template` email since
   * `since` (e.g. "Your referral link" re-sent too soon), each with when the latest was queued.
   */
  async recentlyEmailed(
    scope: BusinessScope,
    memberIds: readonly string[],
    template: string,
    since: Date,
  ): Promise<Map<string, Date>> {
    const rows: { member_id: string; at: Date }[] = await this.dataSource.query(
      `SELECT member_id, max(created_at) AS at FROM member_emails
        WHERE business_id = $1 AND member_id = ANY($2::uuid[]) AND template = $3 AND created_at > $4
          AND status IN ('queued', 'held', ${OUT_OR_GOING_STATUSES})
        GROUP BY member_id`,
      [scope.businessId, memberIds, template, since],
    );
    return new Map(rows.map((row) => [row.member_id, row.at]));
  }

  /**
   * Serialises, until `manager`'s transaction ends, every capped send to this member (a
   * transaction-scoped advisory lock on the member's id): two joins' follow-ups cannot both see
   * room under the cap.
   */
  async lockMember(scope: BusinessScope, manager: EntityManager, memberId: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `member-emails:${scope.businessId}:${memberId}`,
    ]);
  }

  /**
   * When the `template` emails queued to this member of the scope's business within the last
   * `windowSeconds` were queued (those not sent for want of a member or address excluded), oldest
   * first; read in `manager`'s transaction.
   */
  async queuedSince(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
    template: string,
    windowSeconds: number,
  ): Promise<Date[]> {
    const rows: { created_at: Date }[] = await manager.query(
      `SELECT created_at FROM member_emails
        WHERE business_id = $1 AND member_id = $2 AND template = $3
          AND created_at > now() - make_interval(secs => $4)
          AND status IN ('queued', 'held', ${OUT_OR_GOING_STATUSES})
        ORDER BY created_at`,
      [scope.businessId, memberId, template, windowSeconds],
    );
    return rows.map((row) => row.created_at);
  }

  /**
   * Whether the event `eventKey` was already told to the member: recorded as an email of its own,
   * or listed in `data.eventKeys` of one of the member's `summaryTemplate` emails.
   */
  async alreadyTold(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
    eventKey: string,
    summaryTemplate: string,
  ): Promise<boolean> {
    const [row] = (await manager.query(
      `SELECT EXISTS (SELECT 1 FROM member_emails WHERE business_id = $1 AND event_key = $2)
           OR EXISTS (SELECT 1 FROM member_emails WHERE business_id = $1 AND member_id = $3
                        AND template = $4 AND data->'eventKeys' ? $2) AS told`,
      [scope.businessId, eventKey, memberId, summaryTemplate],
    )) as { told: boolean }[];
    return row?.told ?? false;
  }

  /**
   * Adds one event to the member's summary email of `template` that still waits to be sent: its
   * key to `data.eventKeys` and `name` to `data.friendNames`, in `manager`'s transaction.
   * @returns false when the member has no such summary waiting (nothing changed)
   */
  async addToQueuedSummary(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
    template: string,
    event: { eventKey: string; name: string },
  ): Promise<boolean> {
    // A SELECT over the UPDATE: TypeORM answers a bare UPDATE with [rows, count].
    const rows: unknown[] = await manager.query(
      `WITH added AS (
         UPDATE member_emails SET data = jsonb_set(jsonb_set(data,
             '{eventKeys}', data->'eventKeys' || to_jsonb($4::text)),
             '{friendNames}', data->'friendNames' || to_jsonb($5::text))
          WHERE business_id = $1 AND member_id = $2 AND template = $3 AND status = 'queued'
          RETURNING id
       )
       SELECT id FROM added`,
      [scope.businessId, memberId, template, event.eventKey, event.name],
    );
    return rows.length > 0;
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }

  /**
   * The business behind an unsubscribe token and whether its member already unsubscribed.
   * @returns null for an unknown token
   */
  async subscription(
    token: string,
  ): Promise<{ businessName: string; unsubscribed: boolean } | null> {
    const rows: { name: string; unsubscribed_at: Date | null }[] = await this.dataSource.query(
      `SELECT b.name, s.unsubscribed_at FROM member_email_subscriptions s
         JOIN businesses b ON b.id = s.business_id WHERE s.unsubscribe_token = $1`,
      [token],
    );
    const row = rows[0];
    return row ? { businessName: row.name, unsubscribed: row.unsubscribed_at !== null } : null;
  }

  /**
   * Unsubscribes the member of a token (idempotent: the first time is kept).
   * @returns the business's name, or null for an unknown token
   */
  async unsubscribe(token: string): Promise<string | null> {
    const rows: { name: string }[] = await this.dataSource.query(
      `WITH s AS (
         UPDATE member_email_subscriptions SET unsubscribed_at = COALESCE(unsubscribed_at, now())
          WHERE unsubscribe_token = $1 RETURNING business_id)
       SELECT b.name FROM s JOIN businesses b ON b.id = s.business_id`,
      [token],
    );
    return rows[0]?.name ?? null;
  }
}
