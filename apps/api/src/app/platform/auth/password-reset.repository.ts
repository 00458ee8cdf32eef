import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * The only way to `password_reset_tokens` (migration PasswordResetTokens): reset links are stored
 * as the SHA-256 (hex) of their token only. Not business-scoped: the token (or, to make one, the
 * owner's login email) is the credential, as for login.
 */
@Injectable()
export class PasswordResetRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores a new reset link for `userId`, valid for `ttlSeconds`, unless `maxPerHour` links were
   * made for them within the last hour; in the same statement deletes their links that ended more
   * than a day ago.
   * @returns the new row's id, or null when the owner is at the hourly limit (nothing stored)
   */
  async issue(
    userId: string,
    tokenHash: string,
    ttlSeconds: number,
    maxPerHour: number,
  ): Promise<string | null> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH cleaned AS (
         DELETE FROM password_reset_tokens
          WHERE user_id = $1 AND expires_at < now() - interval '1 day'),
       recent AS (
         SELECT count(*) AS n FROM password_reset_tokens
          WHERE user_id = $1 AND created_at > now() - interval '1 hour')
       INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
       SELECT $1, $2, now() + make_interval(secs => $3) FROM recent WHERE n < $4
       RETURNING id`,
      [userId, tokenHash, ttlSeconds, maxPerHour],
    );
    return rows[0]?.id ?? null;
  }

  /** Deletes a link that could not be emailed (so it neither works nor counts toward the hourly limit). */
  async withdraw(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM password_reset_tokens WHERE id = $1`, [id]);
  }

  /**
   * Ends every live reset link of `userId` (marks them used) inside `manager`'s transaction: a
   * password changed in Account Settings makes the links sent before it useless (issue 34 item 2).
   */
  async endAll(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(
      `UPDATE password_reset_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
  }

  /**
   * Uses a reset link inside `manager`'s transaction: marks it used in the statement that checks
   * it is unused and not expired (of two concurrent uses one wins), and every other live link of
   * its owner used too.
   * @returns the owner's user id, or null when the link is unknown, used or expired
   */
  async consume(manager: EntityManager, tokenHash: string): Promise<string | null> {
    const rows: { user_id: string }[] = await manager.query(
      `WITH used AS (
         UPDATE password_reset_tokens SET used_at = now()
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
          RETURNING user_id),
       others AS (
         UPDATE password_reset_tokens p SET used_at = now()
           FROM used WHERE p.user_id = used.user_id AND p.used_at IS NULL AND p.token_hash <> $1)
       SELECT user_id FROM used`,
      [tokenHash],
    );
    return rows[0]?.user_id ?? null;
  }
}
