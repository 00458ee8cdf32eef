import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { businessLocale, type BusinessLocale, type WelcomeOffer } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import { FACT_COLUMNS, ON_EVENT_KEY } from '../../membership/lifecycle/lifecycle.repository';

/** What the business's join page shows (public: nothing about any member). */
export interface BusinessJoinPageInfo {
  businessName: string;
  /** The business's welcome offer for a friend (`businesses.welcome_offer`), null for none. */
  welcomeOffer: WelcomeOffer | null;
  businessLocale: BusinessLocale;
}

/** A friend of the business's join page, as the join writes them. */
export interface BusinessJoinFriend {
  name: string;
  email: string;
  emailKey: string;
  /** "Who referred you?" trimmed, null when left empty. */
  referredByNote: string | null;
  /** The email's domain is a disposable one (the `disposable_email` signal of a referral join). */
  disposableEmail: boolean;
}

/**
 * The business's own join page, `/join/<code>` (issue 33 item 4, docs/product.md#business-join):
 * the public reads and the join resolve the business from `businesses.join_code` inside their
 * one statement (no `BusinessScope`: nothing a visitor sends reaches another business); the
 * owner's read takes the session's `BusinessScope`.
 */
@Injectable()
export class BusinessJoinRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The business of a join code, or null for none. */
  async findByCode(code: string): Promise<BusinessJoinPageInfo | null> {
    const [row] = (await this.dataSource.query(
      `SELECT name, welcome_offer, country, time_zone FROM businesses WHERE join_code = $1`,
      [code],
    )) as {
      name: string;
      welcome_offer: WelcomeOffer | null;
      country: string;
      time_zone: string | null;
    }[];
    return row
      ? {
          businessName: row.name,
          welcomeOffer: row.welcome_offer,
          businessLocale: businessLocale(row.country, row.time_zone),
        }
      : null;
  }

  /**
   * Gives the session's business a new join code (32 random hex characters, as the migration's),
   * in `manager`'s transaction: the old code then finds no business. @returns the new code
   */
  async replaceCode({ businessId }: BusinessScope, manager: EntityManager): Promise<string> {
    const [row] = (await manager.query(
      `WITH replaced AS (
         UPDATE businesses SET join_code = replace(gen_random_uuid()::text, '-', '')
         WHERE id = $1 RETURNING join_code
       )
       SELECT join_code FROM replaced`,
      [businessId],
    )) as { join_code: string }[];
    if (!row) throw new Error(`business ${businessId} has no row`);
    return row.join_code;
  }

  /** The session's business's join code (read in `manager`'s transaction when given). */
  async codeOf(
    { businessId }: BusinessScope,
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<string> {
    const [row] = (await manager.query(`SELECT join_code FROM businesses WHERE id = $1`, [
      businessId,
    ])) as { join_code: string }[];
    if (!row) throw new Error(`business ${businessId} has no row`);
    return row.join_code;
  }

  /**
   * A friend joins through the business's page, in ONE statement of `manager`'s transaction: the
   * business comes from the code; an email of none of its members queues a prospect without a
   * referring member, keeping "Who referred you?" as `referred_by_note`, with its
   * prospect_joined fact (channel `join-page`, Analytics' 'Join page'); the same friend again is one prospect (its attempts
   * counted, a note it had kept). An email of a member of the business writes nothing, so the
   * answer is the same for everyone.
   * @returns false when no business has that code
   */
  async join(code: string, friend: BusinessJoinFriend, manager: EntityManager): Promise<boolean> {
    const [row] = (await manager.query(
      `WITH b AS (
         SELECT id FROM businesses WHERE join_code = $1 FOR KEY SHARE
       ), queued AS (
         INSERT INTO prospects (business_id, referring_member_id, name, email, email_key, source, flags, channel, referred_by_note)
         SELECT b.id, NULL, $2, $3, $4, NULL,
           CASE WHEN $6::boolean THEN ARRAY['disposable_email'] ELSE ARRAY[]::text[] END, 'join-page', $5
         FROM b
         WHERE NOT EXISTS (SELECT 1 FROM members x WHERE x.business_id = b.id AND x.email_key = $4)
         ON CONFLICT (business_id, email_key) DO UPDATE SET
           join_attempts = prospects.join_attempts + 1,
           referred_by_note = CASE WHEN prospects.referring_member_id IS NULL
             THEN COALESCE(prospects.referred_by_note, EXCLUDED.referred_by_note)
             ELSE prospects.referred_by_note END
         RETURNING id, business_id, (xmax = 0) AS created
       ), joined AS (
         INSERT INTO lifecycle_facts (${FACT_COLUMNS}, channel)
         SELECT q.business_id, 'prospect_joined', NULL, NULL, NULL, q.id, NULL, 'prospect_joined:' || q.id, 'join-page'
         FROM queued q WHERE q.created
         ${ON_EVENT_KEY}
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM b) AS found, (SELECT count(*) FROM joined) AS facts`,
      [
        code,
        friend.name,
        friend.email,
        friend.emailKey,
        friend.referredByNote,
        friend.disposableEmail,
      ],
    )) as { found: boolean }[];
    return row?.found === true;
  }

  /** Runs `work` in one transaction; use only the manager it receives. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
