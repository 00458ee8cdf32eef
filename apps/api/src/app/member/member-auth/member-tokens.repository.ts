import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BusinessScope } from '../../platform/database/business-scope';

/** The member a magic link or a member session belongs to. */
export interface MemberIdentity {
  businessId: string;
  memberId: string;
}

/** A live member session, read by its token hash. */
export interface MemberSessionRow extends MemberIdentity {
  sessionId: string;
  expiresAt: Date;
}

interface SessionSqlRow {
  id: string;
  business_id: string;
  member_id: string;
  expires_at: Date;
}

function toSession(row: SessionSqlRow): MemberSessionRow {
  return {
    sessionId: row.id,
    businessId: row.business_id,
    memberId: row.member_id,
    expiresAt: row.expires_at,
  };
}

/**
 * The only way to `member_magic_links` and `member_sessions`: tokens are stored as their SHA-256
 * (hex) only. Creating one takes the `BusinessScope` of the member it is for; reading one by its
 * hash is how a request proves its business and member (the token is the credential).
 */
@Injectable()
export class MemberTokensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores a magic link for a member of the scope's business.
   * @returns false when the member is not the business's (nothing stored)
   */
  async insertMagicLink(
    scope: BusinessScope,
    memberId: string,
    tokenHash: string,
    ttlSeconds: number,
  ): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO member_magic_links (business_id, member_id, token_hash, expires_at)
       SELECT m.business_id, m.id, $3, now() + make_interval(secs => $4)
         FROM members m WHERE m.business_id = $1 AND m.id = $2
       RETURNING id`,
      [scope.businessId, memberId, tokenHash, ttlSeconds],
    );
    return rows.length === 1;
  }

  /**
   * Uses a magic link: marks it used in the same statement that checks it is unused and not
   * expired (two concurrent uses: one wins), and opens a member session for its member.
   * @returns the session, or null when the link is unknown, used or expired
   */
  async consumeMagicLink(
    tokenHash: string,
    sessionTokenHash: string,
    sessionTtlSeconds: number,
  ): Promise<MemberSessionRow | null> {
    const rows: SessionSqlRow[] = await this.dataSource.query(
      `WITH used AS (
         UPDATE member_magic_links SET used_at = now()
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
          RETURNING business_id, member_id)
       INSERT INTO member_sessions (business_id, member_id, token_hash, expires_at)
       SELECT business_id, member_id, $2, now() + make_interval(secs => $3) FROM used
       RETURNING id, business_id, member_id, expires_at`,
      [tokenHash, sessionTokenHash, sessionTtlSeconds],
    );
    return rows[0] ? toSession(rows[0]) : null;
  }

  /** The live (not revoked, not expired) session of a token hash, or null. */
  async findLiveSession(tokenHash: string): Promise<MemberSessionRow | null> {
    const rows: SessionSqlRow[] = await this.dataSource.query(
      `SELECT id, business_id, member_id, expires_at FROM member_sessions
          WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [tokenHash],
    );
    return rows[0] ? toSession(rows[0]) : null;
  }

  /** Revokes one member session of the scope's business (sign out). */
  async revokeSession(scope: BusinessScope, sessionId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE member_sessions SET revoked_at = now()
        WHERE business_id = $1 AND id = $2 AND revoked_at IS NULL`,
      [scope.businessId, sessionId],
    );
  }

  /**
   * The members whose email key is `emailKey`, in every business (a member asking for a new link
   * by email: the page does not know the business), at most 20.
   */
  async membersByEmailKey(emailKey: string): Promise<MemberIdentity[]> {
    const rows: { business_id: string; id: string }[] = await this.dataSource.query(
      `SELECT business_id, id FROM members WHERE email_key = $1 ORDER BY created_at LIMIT 20`,
      [emailKey],
    );
    return rows.map((row) => ({ businessId: row.business_id, memberId: row.id }));
  }
}
