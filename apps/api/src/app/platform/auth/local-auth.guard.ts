import { Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { AuthUser } from '../common/auth-user';
import { LoginThrottle } from '../throttle/login-throttle';
import { AuthService } from './auth.service';
import { InvalidCredentialsException } from './auth.exceptions';
import { PasswordResetService } from './password-reset.service';

/**
 * Runs the passport-local strategy on `POST /api/auth/login`. Because passport-local refuses
 * empty fields before calling the strategy, this guard checks them first (docs/product.md#validation messages).
 * A login that succeeds is taken off the 'login' throttle's count (`LoginThrottle`): only failed
 * logins count toward THROTTLE_LOGIN_LIMIT. Each attempt also counts for its account
 * (THROTTLE_ACCOUNT_LOGIN_LIMIT, whatever the address): a paused account answers 429 before its
 * password is checked, and its owner is emailed once.
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
  constructor(
    private readonly auth: AuthService,
    private readonly throttle: LoginThrottle,
    private readonly resets: PasswordResetService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const body = (request.body ?? {}) as Record<string, unknown>;
    const email = body['email'];
    const password = body['password'];
    const filled = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';
    if (!filled(email) || !filled(password)) {
      // Throws the SPEC message: 400 when both are empty, 401 otherwise.
      await this.auth.validateCredentials(email, password);
    }
    const account = String(email);
    await this.throttle.countAccountAttempt(account, () => this.resets.signInPaused(account));
    const signedIn = (await super.canActivate(context)) as boolean;
    if (signedIn)
      await this.throttle.forgiveSuccess(request as unknown as Record<string, unknown>, account);
    return signedIn;
  }

  override handleRequest<TUser = AuthUser>(error: unknown, user: TUser | false): TUser {
    if (error) throw error;
    if (!user) throw new InvalidCredentialsException();
    return user;
  }
}
