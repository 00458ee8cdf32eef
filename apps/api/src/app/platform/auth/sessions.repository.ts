import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { StaffRole } from '@grove/contracts';
import { PreparedReads, preparedStatement } from '../database/prepared-query';
import { runTransaction } from '../database/transaction';
import { SessionEntity } from './session.entity';

/**
 * The session is live, and the token's user and business are the session's user and hers; with
 * the user's role now, and whether their business requires a second factor they do not have (no
 * confirmed authenticator app, no passkey: docs/product.md#second-factor).
 */
const IS_ACTIVE = preparedStatement(
  `SELECT s.expires_at, u.role,
          (b.second_factor_required
            AND NOT EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = u.id AND t.confirmed_at IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM user_passkeys p WHERE p.user_id = u.id)) AS second_factor_missing
     FROM sessions s JOIN users u ON u.id = s.user_id JOIN businesses b ON b.id = u.business_id
   WHERE s.id = $1 AND s.user_id = $2 AND u.business_id = $3 AND s.revoked_at IS NULL AND s.expires_at > now()`,
);

/**
 * Which live sessions to revoke: one sign-in (family) by a token's hash or a session id, a user's
 * others (`exceptSessionId`), or every session of a user (a password reset).
 */
export type RevokeTarget =
  | { familyOf: { refreshTokenHash: string } }
  | { familyOf: { sessionId: string } }
  | { familyId: string; userId?: string }
  | { userId: string; exceptSessionId?: string };

/** The columns of a new session row (its refresh token only as its SHA-256 hash). */
export type NewSession = Pick<
  SessionEntity,
  'id' | 'familyId' | 'signedInAt' | 'userId' | 'userAgent' | 'refreshTokenHash' | 'expiresAt'
>;

/**
 * The only way to the `sessions` table (used by `SessionsService`). Methods that run inside a
 * rotation take the transaction's EntityManager; the others default to the data source's.
 */
@Injectable()
export class SessionsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: PreparedReads,
  ) {}

  /** The session whose refresh token has this hash, row-locked until the transaction ends; null when unknown. */
  findByTokenHashForUpdate(
    manager: EntityManager,
    refreshTokenHash: string,
  ): Promise<SessionEntity | null> {
    return manager.getRepository(SessionEntity).findOne({
      where: { refreshTokenHash },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** The session `id` of family `familyId`, or null. */
  findInFamily(
    manager: EntityManager,
    id: string,
    familyId: string,
  ): Promise<SessionEntity | null> {
    return manager.getRepository(SessionEntity).findOneBy({ id, familyId });
  }

  /**
   * The user's live sign-ins (not revoked, not expired), one per sign-in (family): its newest
   * session row's time (its last token refresh) and browser, newest first.
   * @param currentSessionId the caller's session: its sign-in is marked `current`
   */
  async liveSignIns(
    userId: string,
    currentSessionId: string | undefined,
  ): Promise<
    {
      familyId: string;
      signedInAt: Date;
      lastActiveAt: Date;
      userAgent: string | null;
      current: boolean;
    }[]
  > {
    const rows = (await this.dataSource.query(
      `SELECT * FROM (
         SELECT DISTINCT ON (family_id) family_id, signed_in_at, created_at AS last_active_at,
                user_agent,
                family_id = (SELECT family_id FROM sessions WHERE id = $2) AS current
           FROM sessions
          WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
          ORDER BY family_id, created_at DESC
       ) live
       ORDER BY current DESC, last_active_at DESC`,
      [userId, currentSessionId ?? null],
    )) as {
      family_id: string;
      signed_in_at: Date;
      last_active_at: Date;
      user_agent: string | null;
      current: boolean | null;
    }[];
    return rows.map((row) => ({
      familyId: row.family_id,
      signedInAt: row.signed_in_at,
      lastActiveAt: row.last_active_at,
      userAgent: row.user_agent,
      current: row.current === true,
    }));
  }

  /** Inserts a live session row (inside `manager`'s transaction when given). */
  async insert(row: NewSession, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager
      .getRepository(SessionEntity)
      .insert({ ...row, revokedAt: null, replacedById: null });
  }

  /** Marks session `id` revoked now and replaced by `nextId` (a rotation). */
  async markRotated(manager: EntityManager, id: string, nextId: string): Promise<void> {
    await manager
      .getRepository(SessionEntity)
      .update({ id }, { revokedAt: new Date(), replacedById: nextId });
  }

  /**
   * Sets `revoked_at` = now() on the live (not yet revoked) sessions of `target`.
   * @returns the ids of the sessions revoked
   */
  async revoke(
    target: RevokeTarget,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const [where, parameters] = revokeCondition(target);
    const result = await manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ revokedAt: () => 'now()' })
      .where(`revoked_at IS NULL AND ${where}`, parameters)
      .returning('id')
      .execute();
    return (result.raw as { id: string }[]).map((row) => row.id);
  }

  /**
   * The expiry of session `sessionId`, its user's role and whether the user lacks a second factor
   * their business requires, when it is live and belongs to `userId` of `businessId`; null otherwise. One named prepared statement with a generic plan (see
   * `PreparedReads`).
   */
  async activeUntil(
    sessionId: string,
    userId: string,
    businessId: string,
  ): Promise<{ expiresAt: Date; role: StaffRole; secondFactorMissing: boolean } | null> {
    const [row] = await this.reads.query<{
      expires_at: Date;
      role: StaffRole;
      second_factor_missing: boolean;
    }>(IS_ACTIVE, [sessionId, userId, businessId]);
    return row
      ? {
          expiresAt: row.expires_at,
          role: row.role,
          secondFactorMissing: row.second_factor_missing,
        }
      : null;
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}

/** The SQL condition on `sessions` (and its parameters) selecting `target`'s rows. */
function revokeCondition(target: RevokeTarget): [string, Record<string, string>] {
  if ('familyId' in target)
    return target.userId
      ? [
          'family_id = :familyId AND user_id = :userId',
          { familyId: target.familyId, userId: target.userId },
        ]
      : ['family_id = :familyId', { familyId: target.familyId }];
  if ('userId' in target)
    return target.exceptSessionId
      ? [
          'user_id = :userId AND id <> :exceptSessionId',
          { userId: target.userId, exceptSessionId: target.exceptSessionId },
        ]
      : ['user_id = :userId', { userId: target.userId }];
  if ('refreshTokenHash' in target.familyOf)
    return [
      'family_id = (SELECT family_id FROM sessions WHERE refresh_token_hash = :hash)',
      { hash: target.familyOf.refreshTokenHash },
    ];
  return [
    'family_id = (SELECT family_id FROM sessions WHERE id = :sessionId)',
    { sessionId: target.familyOf.sessionId },
  ];
}
