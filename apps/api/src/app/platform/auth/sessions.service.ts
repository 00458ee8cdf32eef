import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import Bowser from 'bowser';
import { LRUCache } from 'lru-cache';
import type { SignedInSession, StaffRole } from '@grove/contracts';
import type { EntityManager } from 'typeorm';
import type { AuthUser, TokenUser } from '../common/auth-user';
import { AppConfig } from '../config/app-config';
import { hashRefreshToken, newRefreshToken } from './auth-tokens';
import { RefreshRefusedException } from './auth.exceptions';
import type { SessionEntity } from './session.entity';
import { SessionsRepository, type RevokeTarget } from './sessions.repository';

/**
 * How long (ms) a session the database confirmed active is trusted without asking again. A session
 * revoked by THIS instance is forgotten at once; one revoked through another API instance may pass
 * here for at most this long (docs/decisions/session-trust-window.md).
 */
export const ACTIVE_SESSION_TRUST_MS = 2_000;

/** Sessions remembered at most (one entry ≈ 150 bytes). */
const ACTIVE_SESSION_CACHE_SIZE = 20_000;

/** Rotations followed at most from a rotated token to the live one within the grace window. */
const MAX_GRACE_CHAIN = 20;

/**
 * A session to put in the cookies: its id (goes into the access token), its user, its end, and
 * its refresh token, or null when the browser already holds the current one (grace-window reply).
 */
export interface OpenedSession {
  sessionId: string;
  userId: string;
  refreshToken: string | null;
  /** The earlier of the idle and the absolute deadline. */
  expiresAt: Date;
}

/** Who a live session belongs to and their role, as the database confirmed it. */
interface TrustedSession {
  userId: string;
  businessId: string;
  role: StaffRole;
  /** Their business requires a second factor they do not have (`SecondFactorGate`). */
  secondFactorMissing: boolean;
}

/** What `SessionsService.isActive` confirms of a live session's user. */
export type ActiveSession = Pick<TrustedSession, 'role' | 'secondFactorMissing'>;

/**
 * Refresh-token sessions (table `sessions`): open, rotate, revoke, check. Tokens are stored as
 * SHA-256 hashes only. One sign-in is one family of rows: each rotation revokes the presented row
 * and links it to its successor. A session ends at the earlier of its absolute deadline (sign-in +
 * REFRESH_TOKEN_TTL_SECONDS; rotation does not move it) and its idle deadline (last refresh +
 * SESSION_IDLE_TIMEOUT_SECONDS). A rotated token presented again within REFRESH_REUSE_GRACE_SECONDS
 * (two tabs refreshing at once) is answered with the family's live session; later, it is treated
 * as theft and the whole family is revoked (OAuth 2.0 Security BCP, RFC 9700 §4.14.2).
 */
@Injectable()
export class SessionsService {
  /** Sessions the database confirmed active (→ their user and business), each trusted until its entry's ttl runs out. */
  private readonly active = new LRUCache<string, TrustedSession>({
    max: ACTIVE_SESSION_CACHE_SIZE,
    ttl: ACTIVE_SESSION_TRUST_MS,
  });
  /**
   * Sessions this instance revoked in the last `ACTIVE_SESSION_TRUST_MS`: a check that read
   * "active" just before the revocation committed must not put them back into `active`.
   */
  private readonly revoked = new LRUCache<string, true>({
    max: ACTIVE_SESSION_CACHE_SIZE,
    ttl: ACTIVE_SESSION_TRUST_MS,
  });

  constructor(
    private readonly repository: SessionsRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Opens the first session of a new sign-in for `userId` (inside `manager`'s transaction when given).
   * @returns the new session and its refresh token (plain; only the hash is stored)
   */
  async open(
    userId: string,
    userAgent: string | null,
    manager?: EntityManager,
  ): Promise<OpenedSession> {
    const id = randomUUID();
    return this.insert({ id, familyId: id, signedInAt: new Date(), userId, userAgent }, manager);
  }

  /**
   * Exchanges a refresh token for the next session of its family (rotation), in one transaction.
   * A token rotated less than REFRESH_REUSE_GRACE_SECONDS ago is answered with the family's live
   * session and no new refresh token (`refreshToken: null`).
   * @throws RefreshRefusedException (401) when the token is missing, unknown, expired, past its
   *   session's absolute or idle deadline, or revoked; a rotated token presented after the grace
   *   window also revokes every session of its family (reuse)
   */
  async rotate(refreshToken: string | undefined, userAgent: string | null): Promise<OpenedSession> {
    if (!refreshToken) throw new RefreshRefusedException();
    const outcome = await this.repository.transaction(
      async (manager): Promise<OpenedSession | 'refused'> => {
        const current = await this.repository.findByTokenHashForUpdate(
          manager,
          hashRefreshToken(refreshToken),
        );
        if (!current) return 'refused';
        if (current.revokedAt) {
          if (!current.replacedById) return 'refused';
          const graceEnd =
            current.revokedAt.getTime() + this.config.refreshReuseGraceSeconds * 1000;
          const live = graceEnd > Date.now() ? await this.liveSuccessor(manager, current) : null;
          if (live)
            return {
              sessionId: live.id,
              userId: live.userId,
              refreshToken: null,
              expiresAt: live.expiresAt,
            };
          // Reuse of a rotated token: someone else may hold the chain. End this sign-in everywhere.
          await this.revokeWhere({ familyId: current.familyId }, manager);
          return 'refused';
        }
        if (
          current.expiresAt.getTime() <= Date.now() ||
          this.absoluteEnd(current.signedInAt) <= Date.now()
        )
          return 'refused';
        const next = await this.insert(
          {
            id: randomUUID(),
            familyId: current.familyId,
            signedInAt: current.signedInAt,
            userId: current.userId,
            userAgent,
          },
          manager,
        );
        await this.repository.markRotated(manager, current.id, next.sessionId);
        this.forget([current.id]);
        return next;
      },
    );
    if (outcome === 'refused') throw new RefreshRefusedException();
    return outcome;
  }

  /**
   * Logout: revokes every session of the sign-in that `refreshToken` belongs to (the live one
   * even when the token itself was already rotated). Unknown or already revoked: no-op.
   */
  async revoke(refreshToken: string | undefined): Promise<void> {
    if (!refreshToken) return;
    await this.revokeWhere({ familyOf: { refreshTokenHash: hashRefreshToken(refreshToken) } });
  }

  /** Logout with an access token: revokes every session of the sign-in session `sessionId` belongs to. No-op when unknown. */
  async revokeById(sessionId: string): Promise<void> {
    await this.revokeWhere({ familyOf: { sessionId } });
  }

  /**
   * Ends every live session of `userId` except `keepSessionId` (after a password change), inside
   * `manager`'s transaction when given.
   * @returns how many sessions were ended
   */
  async revokeOthers(
    userId: string,
    keepSessionId: string,
    manager?: EntityManager,
  ): Promise<number> {
    return this.revokeWhere({ userId, exceptSessionId: keepSessionId }, manager);
  }

  /**
   * 'Where you're signed in' (issue 34): the user's live sign-ins, the caller's first, each with
   * its browser and system as its user agent names them (bowser), when it signed in and when it
   * last refreshed its access token.
   */
  async signIns(user: AuthUser): Promise<SignedInSession[]> {
    const rows = await this.repository.liveSignIns(user.userId, user.sessionId);
    return rows.map((row) => ({
      id: row.familyId,
      device: deviceOf(row.userAgent),
      signedInAt: row.signedInAt.toISOString(),
      lastActiveAt: row.lastActiveAt.toISOString(),
      current: row.current,
    }));
  }

  /**
   * Signs out one of the user's sign-ins (`id` as `signIns` lists it): its sessions end at once.
   * @returns false when the user has no live sign-in of that id (another user's is never touched)
   */
  async endSignIn(user: AuthUser, id: string): Promise<boolean> {
    return (await this.revokeWhere({ familyId: id, userId: user.userId })) > 0;
  }

  /**
   * Ends every live session of `userId` (a password reset), inside `manager`'s transaction when
   * given.
   * @returns how many sessions were ended
   */
  async revokeAll(userId: string, manager?: EntityManager): Promise<number> {
    return this.revokeWhere({ userId }, manager);
  }

  /**
   * The user's role (and whether they lack a second factor their business requires) while the
   * session exists, is not revoked, has not expired, and belongs to the token's user and business;
   * null otherwise. Runs on every signed-in request: a session the database confirmed is trusted
   * (with its role) for `ACTIVE_SESSION_TRUST_MS` (never past its expiry) for the same user and
   * business; otherwise one named prepared statement with a generic plan
   * (`SessionsRepository.activeUntil`).
   * @param user the verified access token's `sessionId` (uuid), `userId` and `businessId`
   */
  async isActive(user: TokenUser): Promise<ActiveSession | null> {
    const trusted = this.active.get(user.sessionId);
    if (trusted)
      return trusted.userId === user.userId && trusted.businessId === user.businessId
        ? { role: trusted.role, secondFactorMissing: trusted.secondFactorMissing }
        : null;
    const live = await this.repository.activeUntil(user.sessionId, user.userId, user.businessId);
    if (!live) return null;
    const untilExpiry = live.expiresAt.getTime() - Date.now();
    const confirmed = { role: live.role, secondFactorMissing: live.secondFactorMissing };
    if (!this.revoked.has(user.sessionId) && untilExpiry > 0) {
      this.active.set(
        user.sessionId,
        { userId: user.userId, businessId: user.businessId, ...confirmed },
        { ttl: Math.min(ACTIVE_SESSION_TRUST_MS, untilExpiry) },
      );
    }
    return confirmed;
  }

  /**
   * Forgets the trusted sessions of `userId` on this instance (after a role change or a second
   * factor set up), so their
   * next request reads the new role; other instances read it within `ACTIVE_SESSION_TRUST_MS`.
   */
  forgetUser(userId: string): void {
    for (const [sessionId, trusted] of this.active.entries())
      if (trusted.userId === userId) this.active.delete(sessionId);
  }

  /**
   * Forgets the trusted sessions of every user of `businessId` on this instance (after the
   * business's second-factor requirement changed), so their next request reads it.
   */
  forgetBusiness(businessId: string): void {
    for (const [sessionId, trusted] of this.active.entries())
      if (trusted.businessId === businessId) this.active.delete(sessionId);
  }

  /** Inserts one session row; its end is the earlier of the absolute and the idle deadline. */
  private async insert(
    row: {
      id: string;
      familyId: string;
      signedInAt: Date;
      userId: string;
      userAgent: string | null;
    },
    manager?: EntityManager,
  ): Promise<OpenedSession> {
    const refreshToken = newRefreshToken();
    const expiresAt = new Date(
      Math.min(
        this.absoluteEnd(row.signedInAt),
        Date.now() + this.config.sessionIdleTimeoutSeconds * 1000,
      ),
    );
    await this.repository.insert(
      { ...row, refreshTokenHash: hashRefreshToken(refreshToken), expiresAt },
      manager,
    );
    return { sessionId: row.id, userId: row.userId, refreshToken, expiresAt };
  }

  /** The absolute end (ms since the epoch) of a sign-in made at `signedInAt`. */
  private absoluteEnd(signedInAt: Date): number {
    return signedInAt.getTime() + this.config.refreshTokenTtlSeconds * 1000;
  }

  /** The live (not revoked, not expired) session `rotated` was rotated into, following further rotations; null when there is none. */
  private async liveSuccessor(
    manager: EntityManager,
    rotated: SessionEntity,
  ): Promise<SessionEntity | null> {
    let nextId = rotated.replacedById;
    for (let step = 0; nextId && step < MAX_GRACE_CHAIN; step++) {
      const next = await this.repository.findInFamily(manager, nextId, rotated.familyId);
      if (!next) return null;
      if (!next.revokedAt) return next.expiresAt.getTime() > Date.now() ? next : null;
      nextId = next.replacedById;
    }
    return null;
  }

  /** Revokes the live sessions of `target` and forgets them here. @returns how many were revoked */
  private async revokeWhere(target: RevokeTarget, manager?: EntityManager): Promise<number> {
    const ids = await this.repository.revoke(target, manager);
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

/**
 * 'Chrome 120 on Windows', 'Safari on iOS', or 'Unknown browser' from a User-Agent header
 * (bowser's parse; only the browser's major version is kept).
 */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  const name = browser.name ? `${browser.name}${major ? ` ${major}` : ''}` : 'Unknown browser';
  return os.name ? `${name} on ${os.name}` : name;
}
