import { Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { hashRefreshToken, newRefreshToken } from '../../platform/auth/auth-tokens';
import type { BusinessScope } from '../../platform/database/business-scope';
import { MagicLinkInvalidException } from './member-auth.exceptions';
import { MemberTokensRepository, type MemberSessionRow } from './member-tokens.repository';

/** Name of the member session cookie (plain; `__Secure-` prefixed when COOKIE_SECURE). */
export const MEMBER_COOKIE = 'grove_member';
/**
 * The only paths the member cookie is sent to: the member page API and the server-rendered member
 * page `/member` (docs/architecture.md#member-page). One cookie per path, same name and value: the
 * browser sends neither anywhere else (owner API, other pages).
 */
export const MEMBER_COOKIE_PATHS = ['/api/member', '/member'] as const;

/**
 * Member page sign-in (issue 15): magic links and member sessions. Both tokens are 256 random
 * bits (base64url) stored as SHA-256 only, like refresh tokens (`auth-tokens.ts`). A magic link
 * belongs to one member of one business, works once and expires after
 * MEMBER_MAGIC_LINK_TTL_SECONDS; using it opens a member session of MEMBER_SESSION_TTL_SECONDS
 * held in its own httpOnly cookie (`grove_member`, SameSite=Lax, path `/api/member`): never an
 * owner session, and the owner's access cookie opens nothing here.
 */
@Injectable()
export class MemberAuthService {
  constructor(
    private readonly config: AppConfig,
    private readonly tokens: MemberTokensRepository,
  ) {}

  /** The member cookie's name in this cookie mode. */
  get cookieName(): string {
    return this.config.cookieSecure ? `__Secure-${MEMBER_COOKIE}` : MEMBER_COOKIE;
  }

  /**
   * Issues a magic link token for a member of the scope's business.
   * @returns the raw token (to put in the email once), or null when the member is not the business's
   */
  async issueMagicLink(scope: BusinessScope, memberId: string): Promise<string | null> {
    const token = newRefreshToken();
    const stored = await this.tokens.insertMagicLink(
      scope,
      memberId,
      hashRefreshToken(token),
      this.config.memberAuth.magicLinkTtlSeconds,
    );
    return stored ? token : null;
  }

  /**
   * Uses a magic link and opens a member session, setting the member cookie on `response`.
   * @throws MagicLinkInvalidException 401 unknown, used or expired token
   */
  async startSession(token: string, response: Response): Promise<MemberSessionRow> {
    const sessionToken = newRefreshToken();
    const session = await this.tokens.consumeMagicLink(
      hashRefreshToken(token),
      hashRefreshToken(sessionToken),
      this.config.memberAuth.sessionTtlSeconds,
    );
    if (!session) throw new MagicLinkInvalidException();
    for (const path of MEMBER_COOKIE_PATHS)
      response.cookie(this.cookieName, sessionToken, {
        ...this.cookieOptions(path),
        maxAge: Math.max(0, session.expiresAt.getTime() - Date.now()),
      });
    return session;
  }

  /** The live member session of the request's member cookie, or null. */
  async sessionOf(request: Request): Promise<MemberSessionRow | null> {
    const value: unknown = (request.cookies as Record<string, unknown> | undefined)?.[
      this.cookieName
    ];
    if (typeof value !== 'string' || value.length === 0 || value.length > 200) return null;
    return this.tokens.findLiveSession(hashRefreshToken(value));
  }

  /**
   * True when the request carries a member cookie at all (live or not): a browser that had a
   * member session, as opposed to a first visit. The cookie's value is not checked here.
   */
  hasSessionCookie(request: Request): boolean {
    const value: unknown = (request.cookies as Record<string, unknown> | undefined)?.[
      this.cookieName
    ];
    return typeof value === 'string' && value.length > 0;
  }

  /** Ends a member session (revoked in the database) and clears its cookie. */
  async endSession(scope: BusinessScope, sessionId: string, response: Response): Promise<void> {
    await this.tokens.revokeSession(scope, sessionId);
    for (const path of MEMBER_COOKIE_PATHS)
      response.clearCookie(this.cookieName, this.cookieOptions(path));
  }

  private cookieOptions(path: string): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.cookieSecure,
      path,
    };
  }
}
