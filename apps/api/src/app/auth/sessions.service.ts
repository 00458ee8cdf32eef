import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not, type EntityManager } from 'typeorm';
import { AppConfig } from '../common/app-config';
import { PreparedReads, preparedStatement } from '../database/prepared-query';
import { hashRefreshToken, newRefreshToken } from './auth-tokens';
import { RefreshRefusedException } from './auth.exceptions';
import { SessionEntity } from './session.entity';

const IS_ACTIVE = preparedStatement(
  `SELECT 1 FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()`,
);

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
    const outcome = await this.dataSource.transaction(async (manager): Promise<OpenedSession | 'refused'> => {
      const sessions = manager.getRepository(SessionEntity);
      const current = await sessions.findOne({
        where: { refreshTokenHash: hashRefreshToken(refreshToken) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!current) return 'refused';
      if (current.revokedAt) {
        if (current.replacedById) {
          // Reuse of a rotated token: someone else may hold the chain. End every session.
          await sessions.update({ userId: current.userId, revokedAt: IsNull() }, { revokedAt: new Date() });
        }
        return 'refused';
      }
      if (current.expiresAt.getTime() <= Date.now()) return 'refused';
      const next = await this.open(current.userId, userAgent, manager);
      await sessions.update({ id: current.id }, { revokedAt: new Date(), replacedById: next.sessionId });
      return next;
    });
    if (outcome === 'refused') throw new RefreshRefusedException();
    return outcome;
  }

  /** Revokes the session holding `refreshToken` (logout). Unknown or already revoked: no-op. */
  async revoke(refreshToken: string | undefined): Promise<void> {
    if (!refreshToken) return;
    await this.dataSource
      .getRepository(SessionEntity)
      .update({ refreshTokenHash: hashRefreshToken(refreshToken), revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Revokes one session by id (logout with an access token only). No-op when unknown. */
  async revokeById(sessionId: string): Promise<void> {
    await this.dataSource.getRepository(SessionEntity).update({ id: sessionId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /**
   * Ends every live session of `userId` except `keepSessionId` (after a password change).
   * @returns how many sessions were ended
   */
  async revokeOthers(userId: string, keepSessionId: string): Promise<number> {
    const result = await this.dataSource
      .getRepository(SessionEntity)
      .update({ userId, revokedAt: IsNull(), id: Not(keepSessionId) }, { revokedAt: new Date() });
    return result.affected ?? 0;
  }

  /**
   * True while the session exists, is not revoked and has not expired. Runs on every signed-in
   * request, so it is a named prepared statement with a generic plan (see `PreparedReads`).
   * @param sessionId a `sessions.id` (uuid) from a verified access token
   */
  async isActive(sessionId: string): Promise<boolean> {
    const rows = await this.reads.query(IS_ACTIVE, [sessionId]);
    return rows.length > 0;
  }
}
