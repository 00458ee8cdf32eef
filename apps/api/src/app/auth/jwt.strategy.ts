import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../common/app-config';
import type { AuthUser } from '../common/auth-user';
import { ACCESS_COOKIE, type AccessTokenClaims } from './auth-tokens';
import { NotSignedInException } from './auth.exceptions';
import { SessionsService } from './sessions.service';

const fromCookie = (request: Request): string | null => {
  const value: unknown = (request.cookies as Record<string, unknown> | undefined)?.[ACCESS_COOKIE];
  return typeof value === 'string' && value ? value : null;
};

/**
 * passport-jwt: the access token comes from the `grove_access` cookie or `Authorization: Bearer`.
 * The token's session must still be active, so a logout ends access at once.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly sessions: SessionsService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([fromCookie, ExtractJwt.fromAuthHeaderAsBearerToken()]),
      // jsonwebtoken accepts a KeyObject; @types/passport-jwt only lists string | Buffer.
      secretOrKey: config.jwtKey as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** @throws NotSignedInException 401 when the claims are malformed or the session has ended */
  async validate(claims: Partial<AccessTokenClaims>): Promise<AuthUser> {
    if (typeof claims.sub !== 'string' || typeof claims.bid !== 'string' || typeof claims.sid !== 'string') {
      throw new NotSignedInException();
    }
    if (!(await this.sessions.isActive(claims.sid))) throw new NotSignedInException();
    return { userId: claims.sub, businessId: claims.bid, sessionId: claims.sid };
  }
}
