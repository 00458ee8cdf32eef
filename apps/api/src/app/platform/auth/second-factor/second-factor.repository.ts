import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusinessScope } from '../../database/business-scope';
import { runTransaction } from '../../database/transaction';

/** A user's authenticator app. */
export interface TotpRow {
  secretSealed: string;
  confirmed: boolean;
  lastTimeStep: number | null;
}

/** A live sign-in challenge (password right, code not yet given). */
export interface ChallengeRow {
  userId: string;
  /** The user's email (the per-account login throttle counts a wrong code on it). */
  email: string;
  passwordChangeRequired: boolean;
}

/**
 * `user_totp`, `user_recovery_codes` and `second_factor_challenges` (migration SecondFactor).
 * TENANCY: the signed-in user's methods take the session's `BusinessScope` and the user id, and
 * every statement checks that the user is of that business; the challenge methods are not scoped:
 * the challenge's token (only its SHA-256 is stored) is the credential, as for a reset link, and
 * the sign-in methods run before any session exists.
 */
@Injectable()
export class SecondFactorRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user's app, or null. `manager` locks the row (`FOR UPDATE`) inside its transaction. */
  async totp(userId: string, manager?: EntityManager): Promise<TotpRow | null> {
    const rows = (await (manager ?? this.dataSource).query(
      `SELECT secret_sealed, confirmed_at IS NOT NULL AS confirmed, last_time_step
         FROM user_totp WHERE user_id = $1 ${manager ? 'FOR UPDATE' : ''}`,
      [userId],
    )) as { secret_sealed: string; confirmed: boolean; last_time_step: string | null }[];
    const row = rows[0];
    return row
      ? {
          secretSealed: row.secret_sealed,
          confirmed: row.confirmed,
          lastTimeStep: row.last_time_step === null ? null : Number(row.last_time_step),
        }
      : null;
  }

  /** The scoped user's app (null also when the user is not of the business). */
  async totpOf({ businessId }: BusinessScope, userId: string): Promise<TotpRow | null> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM users WHERE id = $1 AND business_id = $2`,
      [userId, businessId],
    )) as unknown[];
    return rows.length ? this.totp(userId) : null;
  }

  /** Starts (or restarts) an enrolment not yet confirmed: the sealed secret, `confirmed_at` NULL. */
  async startEnrolment(
    { businessId }: BusinessScope,
    userId: string,
    secretSealed: string,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO user_totp (user_id, business_id, secret_sealed)
       SELECT id, business_id, $3 FROM users WHERE id = $1 AND business_id = $2
       ON CONFLICT (user_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed,
              confirmed_at = NULL, last_time_step = NULL, created_at = now()
        WHERE user_totp.confirmed_at IS NULL`,
      [userId, businessId, secretSealed],
    );
  }

  /** Confirms the enrolment and replaces the recovery codes, inside `manager`'s transaction. */
  async confirm(
    manager: EntityManager,
    userId: string,
    timeStep: number,
    codeHashes: string[],
  ): Promise<void> {
    await manager.query(
      `UPDATE user_totp SET confirmed_at = now(), last_time_step = $2 WHERE user_id = $1`,
      [userId, timeStep],
    );
    await this.replaceRecoveryCodes(manager, userId, codeHashes);
  }

  /** Replaces every recovery code of the user (used or not) with these, inside `manager`'s transaction. */
  async replaceRecoveryCodes(
    manager: EntityManager,
    userId: string,
    codeHashes: string[],
  ): Promise<void> {
    await manager.query(`DELETE FROM user_recovery_codes WHERE user_id = $1`, [userId]);
    await manager.query(
      `INSERT INTO user_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`,
      [userId, codeHashes],
    );
  }

  /** The user's second factors: a confirmed app, passkeys. */
  async factors(userId: string): Promise<{ totp: boolean; passkey: boolean }> {
    const rows = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS totp,
              EXISTS (SELECT 1 FROM user_passkeys WHERE user_id = $1) AS passkey`,
      [userId],
    )) as { totp: boolean; passkey: boolean }[];
    return { totp: rows[0]?.totp === true, passkey: rows[0]?.passkey === true };
  }

  /** The scoped user's passkeys (0 when not of the business). */
  async passkeyCount({ businessId }: BusinessScope, userId: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM user_passkeys WHERE user_id = $1 AND business_id = $2`,
      [userId, businessId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  /** Ends every sign-in challenge of the user. */
  async endChallenges(userId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM second_factor_challenges WHERE user_id = $1`, [
      userId,
    ]);
  }

  /** Whether the user has a second factor: a confirmed app or a passkey (inside `manager`'s transaction). */
  async hasFactor(manager: EntityManager, userId: string): Promise<boolean> {
    const rows = (await manager.query(
      `SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL)
           OR EXISTS (SELECT 1 FROM user_passkeys WHERE user_id = $1) AS has`,
      [userId],
    )) as { has: boolean }[];
    return rows[0]?.has === true;
  }

  /** Records the time step of a code just accepted, inside `manager`'s transaction. */
  async useTimeStep(manager: EntityManager, userId: string, timeStep: number): Promise<void> {
    await manager.query(`UPDATE user_totp SET last_time_step = $2 WHERE user_id = $1`, [
      userId,
      timeStep,
    ]);
  }

  /** Uses one unused recovery code. @returns false when there is no such unused code */
  async useRecoveryCode(
    manager: EntityManager,
    userId: string,
    codeHash: string,
  ): Promise<boolean> {
    const rows = (await manager.query(
      `WITH used AS (UPDATE user_recovery_codes SET used_at = now()
                      WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING 1)
       SELECT count(*)::int AS n FROM used`,
      [userId, codeHash],
    )) as { n: number }[];
    return (rows[0]?.n ?? 0) > 0;
  }

  /** Unused recovery codes of the scoped user (0 when not of the business). */
  async recoveryCodesLeft({ businessId }: BusinessScope, userId: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM user_recovery_codes c JOIN users u ON u.id = c.user_id
        WHERE c.user_id = $1 AND u.business_id = $2 AND c.used_at IS NULL`,
      [userId, businessId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  /**
   * Removes the app, and the recovery codes unless a passkey remains (they belong to the second
   * factor as a whole), inside `manager`'s transaction.
   */
  async remove(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(`DELETE FROM user_totp WHERE user_id = $1`, [userId]);
    await this.dropRecoveryCodesWithoutFactor(manager, userId);
  }

  /** Deletes the user's recovery codes when they have no second factor left. */
  async dropRecoveryCodesWithoutFactor(manager: EntityManager, userId: string): Promise<void> {
    if (!(await this.hasFactor(manager, userId)))
      await manager.query(`DELETE FROM user_recovery_codes WHERE user_id = $1`, [userId]);
  }

  /** The scoped user's argon2id hash (null when not of the business). */
  async passwordHash({ businessId }: BusinessScope, userId: string): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `SELECT password_hash FROM users WHERE id = $1 AND business_id = $2`,
      [userId, businessId],
    )) as { password_hash: string }[];
    return rows[0]?.password_hash ?? null;
  }

  /**
   * Whether the scoped user's password is one they chose (false: joined with a passkey and none
   * set since; docs/decisions/passkeys.md). Only the user's own Security card asks.
   */
  async passwordChosen({ businessId }: BusinessScope, userId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT password_chosen FROM users WHERE id = $1 AND business_id = $2`,
      [userId, businessId],
    )) as { password_chosen: boolean }[];
    return rows[0]?.password_chosen ?? true;
  }

  /** The scoped user's email (the label in the authenticator app). */
  async email({ businessId }: BusinessScope, userId: string): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `SELECT email FROM users WHERE id = $1 AND business_id = $2`,
      [userId, businessId],
    )) as { email: string }[];
    return rows[0]?.email ?? null;
  }

  /** Whether the user's business requires a second factor of its staff. */
  async businessRequires(userId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT b.second_factor_required FROM users u JOIN businesses b ON b.id = u.business_id
        WHERE u.id = $1`,
      [userId],
    )) as { second_factor_required: boolean }[];
    return rows[0]?.second_factor_required === true;
  }

  /** Sets the scoped business's requirement. */
  async setBusinessRequires({ businessId }: BusinessScope, required: boolean): Promise<void> {
    await this.dataSource.query(`UPDATE businesses SET second_factor_required = $2 WHERE id = $1`, [
      businessId,
      required,
    ]);
  }

  /** Stores a new challenge (the user's older ones end). */
  async openChallenge(
    userId: string,
    tokenHash: string,
    ttlSeconds: number,
    passwordChangeRequired: boolean,
  ): Promise<void> {
    await runTransaction(this.dataSource, async (manager) => {
      await manager.query(
        `DELETE FROM second_factor_challenges WHERE user_id = $1 OR expires_at < now()`,
        [userId],
      );
      await manager.query(
        `INSERT INTO second_factor_challenges (token_hash, user_id, password_change_required, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
        [tokenHash, userId, passwordChangeRequired, ttlSeconds],
      );
    });
  }

  /**
   * The live challenge of `tokenHash` (not used, not expired, fewer than `maxFailures` wrong
   * codes), locked inside `manager`'s transaction; null otherwise.
   */
  async liveChallenge(
    manager: EntityManager,
    tokenHash: string,
    maxFailures: number,
  ): Promise<ChallengeRow | null> {
    const rows = (await manager.query(
      `SELECT c.user_id, u.email, c.password_change_required
         FROM second_factor_challenges c JOIN users u ON u.id = c.user_id
        WHERE c.token_hash = $1 AND c.used_at IS NULL AND c.expires_at > now() AND c.failures < $2
        FOR UPDATE OF c`,
      [tokenHash, maxFailures],
    )) as { user_id: string; email: string; password_change_required: boolean }[];
    const row = rows[0];
    return row
      ? {
          userId: row.user_id,
          email: row.email,
          passwordChangeRequired: row.password_change_required,
        }
      : null;
  }

  /** Marks the challenge used (success). */
  async useChallenge(manager: EntityManager, tokenHash: string): Promise<void> {
    await manager.query(
      `UPDATE second_factor_challenges SET used_at = now() WHERE token_hash = $1`,
      [tokenHash],
    );
  }

  /** Counts one wrong code on the challenge (outside the failed transaction). */
  async countFailure(tokenHash: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE second_factor_challenges SET failures = failures + 1 WHERE token_hash = $1`,
      [tokenHash],
    );
  }

  /** Runs `work` in one transaction (`runTransaction`: it may run twice on a conflict). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
