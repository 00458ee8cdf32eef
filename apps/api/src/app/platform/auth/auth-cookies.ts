import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { authCookieNames, type AuthCookieNames } from './auth-tokens';

/** Tokens to put in the cookies after sign-in or refresh. */
export interface IssuedTokens {
  accessToken: string;
  /**
   * The new refresh token, or null when the browser already holds the current one (a refresh
   * answered within the reuse grace window: its refresh cookie is left as it is).
   */
  refreshToken: string | null;
  /** When the session ends (idle or absolute deadline, whichever is first); the refresh cookie's expiry. */
  sessionExpiresAt: Date;
}

/**
 * Writes, reads and clears the auth cookies: httpOnly, SameSite=Lax, Secure with the `__Host-`
 * prefix when COOKIE_SECURE (see `authCookieNames`). The access cookie lives
 * ACCESS_TOKEN_TTL_SECONDS on `/`; the refresh cookie lives until the session's end. With them
 * goes the hint cookie (`SESSION_HINT_COOKIE`, readable by scripts, on `/`, the refresh
 * cookie's lifetime, a new random value each time, no secret), so signed-out pages need not ask
 * and tabs can tell that the session was refreshed.
 */
@Injectable()
export class AuthCookies {
  /** The cookie names in use (plain, or `__Host-` prefixed when Secure). */
  readonly names: AuthCookieNames;

  constructor(private readonly config: AppConfig) {
    this.names = authCookieNames(config.cookieSecure);
  }

  private options(path: string, httpOnly = true): CookieOptions {
    return { httpOnly, sameSite: 'lax', secure: this.config.cookieSecure, path };
  }

  /** Sets the access and hint cookies, and the refresh cookie when a new refresh token was issued. */
  set(response: Response, tokens: IssuedTokens): void {
    const sessionMaxAge = Math.max(0, tokens.sessionExpiresAt.getTime() - Date.now());
    response.cookie(this.names.access, tokens.accessToken, {
      ...this.options('/'),
      maxAge: this.config.accessTokenTtlSeconds * 1000,
    });
    if (tokens.refreshToken !== null) {
      response.cookie(this.names.refresh, tokens.refreshToken, {
        ...this.options(this.names.refreshPath),
        maxAge: sessionMaxAge,
      });
    }
    // A new random value each time: a tab waiting to refresh sees that another tab just did.
    response.cookie(this.names.hint, randomBytes(6).toString('base64url'), {
      ...this.options('/', false),
      maxAge: sessionMaxAge,
    });
  }

  /** Clears the three cookies (same name, path and flags as when set). */
  clear(response: Response): void {
    response.clearCookie(this.names.access, this.options('/'));
    response.clearCookie(this.names.refresh, this.options(this.names.refreshPath));
    response.clearCookie(this.names.hint, this.options('/', false));
  }

  /** The refresh token the browser sent, if any. */
  readRefreshToken(request: Request): string | undefined {
    return this.read(request, this.names.refresh) ?? undefined;
  }

  /** The access token the browser sent in its cookie, if any. */
  readAccessToken(request: Request): string | null {
    return this.read(request, this.names.access);
  }

  /** The `User-Agent` header, trimmed to 400 characters, for the sessions table. */
  userAgent(request: Request): string | null {
    return request.headers['user-agent']?.slice(0, 400) ?? null;
  }

  private read(request: Request, name: string): string | null {
    const value: unknown = (request.cookies as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' && value ? value : null;
  }
}
