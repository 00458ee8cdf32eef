import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { Request } from 'express';
import { isUUID } from 'class-validator';
import { LRUCache } from 'lru-cache';
import type { AuthUser, TokenUser } from '../common/auth-user';
import { IS_PUBLIC_KEY } from '../common/public.decorator';
import { AuthCookies } from './auth-cookies';
import type { AccessTokenClaims } from './auth-tokens';
import { NotSignedInException } from './auth.exceptions';
import { SessionsService } from './sessions.service';

const BEARER = /^bearer\s+(\S+)\s*$/i;

/** Verified access tokens remembered at most (one entry ≈ 0.5 KB: the token and its user). */
const VERIFIED_TOKEN_CACHE_SIZE = 20_000;

type Claims = Partial<AccessTokenClaims> & { exp?: unknown };

/** Every id an access token names is a UUID (class-validator's check, as a type guard). */
const isUuid = (value: unknown): value is string => isUUID(value);

/**
 * Global guard: every route needs a valid access token unless marked `@Public()`: the access
 * cookie, else `Authorization: Bearer <jwt>`. Valid means: an HS256 JWT signed with JWT_SECRET,
 * not expired, carrying UUID `sub`/`bid`/`sid` claims, whose session (`sid`) is still active (not
 * revoked, not expired) and belongs to that user (`sub`) of that business (`bid`)
 * (`SessionsService.isActive`), so a logout ends access at once on this instance and within
 * `ACTIVE_SESSION_TRUST_MS` on others.
 * Sets `request.user` (`AuthUser`, with the user's current role, and `secondFactorMissing` for
 * `SecondFactorGate`) for `@CurrentUser()` and `RoleGuard`.
 *
 * A token that verified is remembered (by its exact text, until its `exp`), so the same token on
 * the next request skips the HMAC, base64 and JSON work; the session check still runs every time
 * (docs/decisions/verified-token-cache.md).
 *
 * Verifies with @nestjs/jwt's JwtService and checks the session itself (a prepared statement)
 * rather than through passport + passport-jwt (docs/decisions/jwt-guard-without-passport.md).
 * Login keeps passport-local.
 *
 * @throws NotSignedInException 401 when the token is missing, malformed, forged, expired or its
 *   session has ended
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  /**
   * Verified tokens → their user. An entry ends when its token does: `exp` is wall-clock seconds,
   * so the cache reads `Date.now()` on every lookup (`perf: Date`, `ttlResolution: 0`).
   */
  private readonly verified = new LRUCache<string, TokenUser>({
    max: VERIFIED_TOKEN_CACHE_SIZE,
    perf: Date,
    ttlResolution: 0,
  });

  constructor(
    private readonly reflector: Reflector,
    private readonly jwt: JwtService,
    private readonly sessions: SessionsService,
    private readonly cookies: AuthCookies,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    return this.authenticate(context.switchToHttp().getRequest<Request & { user?: AuthUser }>());
  }

  private async authenticate(request: Request & { user?: AuthUser }): Promise<boolean> {
    const token = this.accessTokenOf(request);
    if (!token) throw new NotSignedInException();
    const user = this.verified.get(token) ?? this.verify(token);
    const active = await this.sessions.isActive(user);
    if (!active) throw new NotSignedInException();
    request.user = {
      ...user,
      role: active.role,
      ...(active.secondFactorMissing ? { secondFactorMissing: true } : {}),
    };
    return true;
  }

  /**
   * The session id of the request's access token when its signature verifies, even if it has
   * expired (for logout, a public route: a client whose token just expired can still end its
   * session). Null when there is no token or it does not verify.
   */
  sessionIdOf(request: Request): string | null {
    const token = this.accessTokenOf(request);
    if (!token) return null;
    try {
      const claims = this.jwt.verify<Claims>(token, {
        algorithms: ['HS256'],
        ignoreExpiration: true,
      });
      return isUuid(claims.sid) ? claims.sid : null;
    } catch {
      return null;
    }
  }

  /** The access token of a request: the access cookie, else `Authorization: Bearer <jwt>`; null when neither. */
  private accessTokenOf(request: Request): string | null {
    const cookie = this.cookies.readAccessToken(request);
    if (cookie) return cookie;
    const header = request.headers.authorization;
    return (header && BEARER.exec(header)?.[1]) || null;
  }

  /**
   * Verifies `token` (HS256, signature, expiry, claims) and remembers it until its `exp`.
   * @throws NotSignedInException when it does not verify or lacks a UUID `sub`/`bid`/`sid`
   */
  private verify(token: string): TokenUser {
    let claims: Claims;
    try {
      claims = this.jwt.verify<Claims>(token, { algorithms: ['HS256'] });
    } catch {
      throw new NotSignedInException();
    }
    if (!isUuid(claims.sub) || !isUuid(claims.bid) || !isUuid(claims.sid))
      throw new NotSignedInException();
    const user: TokenUser = {
      userId: claims.sub,
      businessId: claims.bid,
      sessionId: claims.sid,
    };
    // jsonwebtoken refuses a token from the millisecond `exp` * 1000 on; the entry is stale once
    // more than `ttl` ms have passed, so it ends 1 ms before that.
    const ttl = typeof claims.exp === 'number' ? claims.exp * 1000 - 1 - Date.now() : 0;
    if (ttl > 0) this.verified.set(token, user, { ttl });
    return user;
  }
}
