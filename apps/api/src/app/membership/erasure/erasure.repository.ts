import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';

/** The member being erased, locked. */
export interface ErasableMember {
  id: string;
  name: string;
  email: string;
  emailKey: string;
  managed: boolean;
  erasedAt: Date | null;
}

/**
 * The only way to `erased_member_emails`, and the statements that erase one member's personal
 * data (docs/product.md#data-rights) from every table that holds it: `members` (this module is in
 * membership, which alone writes `members`), and the copies in prospects, join flags, prospect
 * outcomes and the member's tokens and emails. Every method takes the `BusinessScope` first.
 */
@Injectable()
export class ErasureRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }

  /** Which of these digests are recorded for the scope's business. */
  async erasedDigests(
    scope: BusinessScope,
    digests: readonly string[],
    manager?: EntityManager,
  ): Promise<Set<string>> {
    if (digests.length === 0) return new Set();
    const rows: { email_hash: string }[] = await (manager ?? this.dataSource).query(
      `SELECT email_hash FROM erased_member_emails WHERE business_id = $1 AND email_hash = ANY($2::text[])`,
      [scope.businessId, digests],
    );
    return new Set(rows.map((row) => row.email_hash));
  }

  /** Locks a member of the scope's business for erasure, or null. */
  async lockMember(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
  ): Promise<ErasableMember | null> {
    const rows: {
      id: string;
      name: string;
      email: string;
      email_key: string;
      managed: boolean;
      erased_at: Date | null;
    }[] = await manager.query(
      `SELECT id, name, email, email_key, mindbody_client_id IS NOT NULL AS managed, erased_at
         FROM members WHERE business_id = $1 AND id = $2 FOR UPDATE`,
      [scope.businessId, id],
    );
    const row = rows[0];
    return row
      ? {
          id: row.id,
          name: row.name,
          email: row.email,
          emailKey: row.email_key,
          managed: row.managed,
          erasedAt: row.erased_at,
        }
      : null;
  }

  /**
   * Erases one member's personal data in `manager`'s transaction: the name becomes `erasedName`,
   * the email empty (its key the member's id, so it matches no address), the desk's note gone;
   * prices, branches and the price ledger stay (other members' prices depend on them). The
   * copies elsewhere go too: prospects and join flags with the member's email key are deleted,
   * the member's prospect outcomes lose name and email, their sign-in links, sessions, email
   * subscription and page opens are deleted, their waiting emails are dropped ('no_member'),
   * and their live referral links revoked. Records `digest` in `erased_member_emails`. In the
   * audit log, the member's name on its own entries and its former name or email wherever an
   * entry names it become 'Erased member' (`erase_audit_member`, migration AuditLogErasure;
   * the log's facts stay: docs/decisions/audit-log-append-only.md "Erasure").
   */
  async erase(
    scope: BusinessScope,
    manager: EntityManager,
    member: ErasableMember,
    erasedName: string,
    digest: string,
  ): Promise<void> {
    const params = [scope.businessId, member.id];
    await manager.query(
      `UPDATE members SET name = $3, email = '', email_key = 'erased:' || id::text,
              referred_by_note = NULL, erased_at = now()
        WHERE business_id = $1 AND id = $2`,
      [...params, erasedName],
    );
    await manager.query(`DELETE FROM prospects WHERE business_id = $1 AND email_key = $2`, [
      scope.businessId,
      member.emailKey,
    ]);
    await manager.query(`DELETE FROM join_flags WHERE business_id = $1 AND email_key = $2`, [
      scope.businessId,
      member.emailKey,
    ]);
    await manager.query(
      `UPDATE prospect_outcomes SET name = $3, email = NULL WHERE business_id = $1 AND member_id = $2`,
      [...params, erasedName],
    );
    for (const table of [
      'member_magic_links',
      'member_sessions',
      'member_email_subscriptions',
      'member_page_opens',
    ])
      await manager.query(`DELETE FROM ${table} WHERE business_id = $1 AND member_id = $2`, params);
    await manager.query(
      `UPDATE member_emails SET status = 'no_member', held_reason = NULL, delivered_at = now()
        WHERE business_id = $1 AND member_id = $2 AND status IN ('queued', 'held')`,
      params,
    );
    await manager.query(
      `UPDATE referral_links SET revoked_at = now()
        WHERE business_id = $1 AND member_id = $2 AND revoked_at IS NULL`,
      params,
    );
    await manager.query(
      `INSERT INTO erased_member_emails (business_id, email_hash) VALUES ($1, $2)
       ON CONFLICT DO NOTHING`,
      [scope.businessId, digest],
    );
    await manager.query(`SELECT erase_audit_member($1, $2, $3, $4)`, [
      ...params,
      member.name,
      member.email,
    ]);
  }
}
