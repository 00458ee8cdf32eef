import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource, type EntityManager } from 'typeorm';
import { runTransaction } from '../database/transaction';
import { AppConfig } from '../common/app-config';
import { PreparedReads, preparedStatement } from '../database/prepared-query';
import { hashRefreshToken, newRefreshToken } from './auth-tokens';
import { RefreshRefusedException } from './auth.exceptions';
import { SessionEntity } from './session.entity';

const IS_ACTIVE = preparedStatement(
  `SELECT expires_at FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()`,
);

/**
 * How long (ms) a session the database confirmed active is trusted without asking again. A session
 * revoked by THIS instance is forgotten at once; one revoked through another API instance may pass
 * here for at most this long. Measured with `npm run bench:members` (page only, A/B twice): the
 * skipped check was +11-13% members-page req/s.
 */
export const ACTIVE_SESSION_TRUST_MS = 2_000;

/** Sessions remembered at most (one entry ≈ 100 bytes). */
const ACTIVE_SESSION_CACHE_SIZE = 20_000;

/** A session that was just opened: its id (goes into the access token) and its refresh token. */
export interface OpenedSession {
  sessionId: string;
  userId: string;
  refreshToken: string;
}

/**
 * Refresh-token sessions (table `sessions`): open, rotate, revoke, check. Tokens are stored as
 * SHA-256 hashes only. Rotation revokes the presented token and links it to its successor;
 * presenting a rotated token again is treated as theft and ends every session of that user.
 */
@Injectable()
export class SessionsService {
  /** Sessions the database confirmed active, each trusted until its entry's ttl runs out. */
  private readonly active = new LRUCache<string, true>({ max: ACTIVE_SESSION_CACHE_SIZE, ttl: ACTIVE_SESSION_TRUST_MS });
  /**
   * Sessions this instance revoked in the last `ACTIVE_SESSION_TRUST_MS`: a check that read
   * "active" just before the revocation committed must not put them back into `active`.
   */
  private readonly revoked = new LRUCache<string, true>({ max: ACTIVE_SESSION_CACHE_SIZE, ttl: ACTIVE_SESSION_TRUST_MS });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly reads: PreparedReads,
  ) {}

  /**
   * Opens a session for `userId` (inside `manager`'s transaction when given).
   * @returns the new session id and its refresh token (plain; only the hash is stored)
   */
  async open(userId: string, userAgent: string | null, manager: EntityManager = this.dataSource.manager): Promise<OpenedSession> {
    const refreshToken = newRefreshToken();
    const session = await manager.getRepository(SessionEntity).save({
      userId,
      refreshTokenHash: hashRefreshToken(refreshToken),
      expiresAt: new Date(Date.now() + this.config.refreshTokenTtlSeconds * 1000),
      revokedAt: null,
      replacedById: null,
      userAgent,
    });
    return { sessionId: session.id, userId, refreshToken };
  }

  /**
   * Exchanges a refresh token for a new session (rotation), in one transaction.
   * @throws RefreshRefusedException (401) when the token is missing, unknown, expired or revoked;
   *   a revoked token that had been rotated also revokes all of that user's sessions (reuse).
   */
  async rotate(refreshToken: string | undefined, userAgent: string | null): Promise<OpenedSession> {
    if (!refreshToken) throw new RefreshRefusedException();
    const outcome = await runTransaction(this.dataSource, async (manager): Promise<OpenedSession | 'refused'> => {
      const sessions = manager.getRepository(SessionEntity);
      const current = await sessions.findOne({
        where: { refreshTokenHash: hashRefreshToken(refreshToken) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!current) return 'refused';
      if (current.revokedAt) {
        if (current.replacedById) {
          // Reuse of a rotated token: someone else may hold the chain. End every session.
          await this.revokeWhere(manager, 'user_id = :userId', { userId: current.userId });
        }
        return 'refused';
      }
      if (current.expiresAt.getTime() <= Date.now()) return 'refused';
      const next = await this.open(current.userId, userAgent, manager);
      await sessions.update({ id: current.id }, { revokedAt: new Date(), replacedById: next.sessionId });
      this.forget([current.id]);
      return next;
    });
    if (outcome === 'refused') throw new RefreshRefusedException();
    return outcome;
  }

  /** Revokes the session holding `refreshToken` (logout). Unknown or already revoked: no-op. */
  async revoke(refreshToken: string | undefined): Promise<void> {
    if (!refreshToken) return;
    await this.revokeWhere(this.dataSource.manager, 'refresh_token_hash = :hash', { hash: hashRefreshToken(refreshToken) });
  }

  /** Revokes one session by id (logout with an access token only). No-op when unknown. */
  async revokeById(sessionId: string): Promise<void> {
    await this.revokeWhere(this.dataSource.manager, 'id = :sessionId', { sessionId });
  }

  /**
   * Ends every live session of `userId` except `keepSessionId` (after a password change).
   * @returns how many sessions were ended
   */
  async revokeOthers(userId: string, keepSessionId: string): Promise<number> {
    return this.revokeWhere(this.dataSource.manager, 'user_id = :userId AND id <> :keepSessionId', { userId, keepSessionId });
  }

  /**
   * True while the session exists, is not revoked and has not expired. Runs on every signed-in
   * request: a session the database confirmed is trusted for `ACTIVE_SESSION_TRUST_MS` (never past
   * its expiry); otherwise a named prepared statement with a generic plan (see `PreparedReads`).
   * @param sessionId a `sessions.id` (uuid) from a verified access token
   */
  async isActive(sessionId: string): Promise<boolean> {
    if (this.active.get(sessionId)) return true;
    const [row] = await this.reads.query<{ expires_at: Date }>(IS_ACTIVE, [sessionId]);
    if (!row) return false;
    const untilExpiry = row.expires_at.getTime() - Date.now();
    if (!this.revoked.has(sessionId) && untilExpiry > 0) {
      this.active.set(sessionId, true, { ttl: Math.min(ACTIVE_SESSION_TRUST_MS, untilExpiry) });
    }
    return true;
  }

  /** Sets `revoked_at` on the live sessions matching `where` (SQL on `sessions`), forgets them here. */
  private async revokeWhere(manager: EntityManager, where: string, parameters: Record<string, string>): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ revokedAt: () => 'now()' })
      .where(`revoked_at IS NULL AND ${where}`, parameters)
      .returning('id')
      .execute();
    const ids = (result.raw as { id: string }[]).map((row) => row.id);
    this.forget(ids);
    return ids.length;
  }

  /** Drops revoked sessions from the trusted set, and keeps a check under way from re-adding them. */
  private forget(sessionIds: string[]): void {
    for (const id of sessionIds) {
      this.active.delete(id);
      this.revoked.set(id, true);
    }
  }
}
