import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-local';
import type { AuthUser } from '../common/auth-user';
import { AuthService } from './auth.service';

/**
 * passport-local: reads `email` and `password` from the body. Empty fields are checked by the
 * service (docs/product.md#validation message), so passport's own "missing credentials" path is never used.
 */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  constructor(private readonly auth: AuthService) {
    super({ usernameField: 'email', passwordField: 'password', passReqToCallback: true });
  }

  /** @throws LoginFieldsEmptyException 400, InvalidCredentialsException 401 */
  validate(request: Request): Promise<AuthUser> {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return this.auth.validateCredentials(body['email'], body['password']);
  }
}
