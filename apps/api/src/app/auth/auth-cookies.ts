import { Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { SESSION_HINT_COOKIE } from '@grove/contracts';
import { AppConfig } from '../common/app-config';
import { ACCESS_COOKIE, REFRESH_COOKIE, REFRESH_COOKIE_PATH } from './auth-tokens';

/** A freshly issued pair of tokens. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * Writes and clears the auth cookies: both httpOnly, SameSite=Lax, Secure when COOKIE_SECURE.
 * The access cookie lives ACCESS_TOKEN_TTL_SECONDS on `/`; the refresh cookie lives
 * REFRESH_TOKEN_TTL_SECONDS on `/api/auth` only. With them goes `SESSION_HINT_COOKIE` (`1`,
 * readable by scripts, on `/`, the refresh cookie's lifetime), so signed-out pages need not ask.
 */
@Injectable()
export class AuthCookies {
  constructor(private readonly config: AppConfig) {}

  private options(path: string, httpOnly = true): CookieOptions {
    return { httpOnly, sameSite: 'lax', secure: this.config.cookieSecure, path };
  }

  /** Sets both cookies on the reply. */
  set(response: Response, tokens: IssuedTokens): void {
    response.cookie(ACCESS_COOKIE, tokens.accessToken, {
      ...this.options('/'),
      maxAge: this.config.accessTokenTtlSeconds * 1000,
    });
    response.cookie(REFRESH_COOKIE, tokens.refreshToken, {
      ...this.options(REFRESH_COOKIE_PATH),
      maxAge: this.config.refreshTokenTtlSeconds * 1000,
    });
    response.cookie(SESSION_HINT_COOKIE, '1', {
      ...this.options('/', false),
      maxAge: this.config.refreshTokenTtlSeconds * 1000,
    });
  }

  /** Clears the three cookies (same name, path and flags as when set). */
  clear(response: Response): void {
    response.clearCookie(ACCESS_COOKIE, this.options('/'));
    response.clearCookie(REFRESH_COOKIE, this.options(REFRESH_COOKIE_PATH));
    response.clearCookie(SESSION_HINT_COOKIE, this.options('/', false));
  }

  /** The refresh token the browser sent, if any. */
  readRefreshToken(request: Request): string | undefined {
    const value: unknown = (request.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
    return typeof value === 'string' && value ? value : undefined;
  }

  /** The `User-Agent` header, trimmed to 400 characters, for the sessions table. */
  userAgent(request: Request): string | null {
    return request.headers['user-agent']?.slice(0, 400) ?? null;
  }
}
