import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/** The account a verification link belongs to. */
export interface VerifyingUser {
  userId: string;
  businessId: string;
  email: string;
  firstName: string;
  businessName: string;
  role: string;
  senderVerified: boolean;
}

/**
 * The only way to `email_verifications` and `businesses.sender_verified_at` (docs/product.md#verified-senders):
 * links stored as the SHA-256 (hex) of their token only. Not business-scoped: the token, or the
 * signed-in user's id, is the credential.
 */
@Injectable()
export class EmailVerificationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user with their business's sender state, or null. */
  async user(userId: string, manager?: EntityManager): Promise<VerifyingUser | null> {
    const rows: {
      id: string;
      business_id: string;
      email: string;
      first_name: string;
      role: string;
      name: string;
      verified: boolean;
    }[] = await (manager ?? this.dataSource).query(
      `SELECT u.id, u.business_id, u.email, u.first_name, u.role, b.name,
              b.sender_verified_at IS NOT NULL AS verified
         FROM users u JOIN businesses b ON b.id = u.business_id WHERE u.id = $1`,
      [userId],
    );
    const row = rows[0];
    return row
      ? {
          userId: row.id,
          businessId: row.business_id,
          email: row.email,
          firstName: row.first_name,
          businessName: row.name,
          role: row.role,
          senderVerified: row.verified,
        }
      : null;
  }

  /** Stores a new link for the user (valid `ttlSeconds`), in `manager`'s transaction when given. */
  async issue(
    user: { userId: string; businessId: string },
    tokenHash: string,
    ttlSeconds: number,
    manager?: EntityManager,
  ): Promise<void> {
    await (manager ?? this.dataSource).query(
      `INSERT INTO email_verifications (token_hash, user_id, business_id, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [tokenHash, user.userId, user.businessId, ttlSeconds],
    );
  }

  /** Marks the business's sender verified (now, unless it already was), in `manager`'s transaction. */
  async markVerified(businessId: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE businesses SET sender_verified_at = coalesce(sender_verified_at, now()) WHERE id = $1`,
      [businessId],
    );
  }

  /** Links the user asked for in the last hour (the resend limit). */
  async issuedLastHour(userId: string): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS n FROM email_verifications
        WHERE user_id = $1 AND created_at > now() - interval '1 hour'`,
      [userId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Uses a link: marks it used in the statement that checks it is unused and unexpired, and marks
   * the business's sender verified when the link's user is an owner (once; later links keep the
   * first date).
   * @returns the business whose sender is now verified, or null when the link is not valid
   */
  async use(tokenHash: string): Promise<{ businessId: string } | null> {
    return this.dataSource.transaction(async (manager) => {
      const rows: { user_id: string; business_id: string }[] = await manager.query(
        `WITH used AS (
           UPDATE email_verifications SET used_at = now()
            WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
            RETURNING user_id, business_id)
         SELECT user_id, business_id FROM used`,
        [tokenHash],
      );
      const row = rows[0];
      if (!row) return null;
      await manager.query(
        `UPDATE businesses b SET sender_verified_at = coalesce(b.sender_verified_at, now())
           FROM users u WHERE u.id = $1 AND u.business_id = b.id AND u.role = 'owner'`,
        [row.user_id],
      );
      return { businessId: row.business_id };
    });
  }
}
