import { Injectable } from '@nestjs/common';
import { LoginThrottle } from '../../throttle/login-throttle';
import { AuthService, type AuthResult, type CheckedLogin } from '../auth.service';
import { PasswordResetService } from '../password-reset.service';
import { SessionsService } from '../sessions.service';
import { SecondFactorService } from './second-factor.service';

/** A right password of a user with a second factor: the sign-in waits for the code. */
export interface SecondFactorPending {
  secondFactorRequired: true;
  /** The challenge token to send back with the code (5 minutes, single use). */
  challenge: string;
  /** The user has an authenticator app (the step asks for its code). */
  totp: boolean;
  /** The user has a passkey (the step offers it). */
  passkey: boolean;
}

/**
 * The two-step sign-in (issue 34 item 3, docs/product.md#second-factor): after a right password,
 * a user with an authenticator app or a passkey gets a challenge instead of a session; the code
 * from the app (or a recovery code) opens the session, or a passkey of that user
 * (`PasskeysService.signIn` with the challenge's sign-in options). A wrong code counts as a failed sign-in of the account
 * (THROTTLE_ACCOUNT_LOGIN_LIMIT, `LoginThrottle`), so guessing codes pauses the account as guessing
 * passwords does (ASVS 2.2.1, 2.8.x).
 */
@Injectable()
export class SecondFactorSignIn {
  constructor(
    private readonly secondFactor: SecondFactorService,
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottle,
    private readonly resets: PasswordResetService,
  ) {}

  /**
   * After a right password: the session (no second factor; its user marked
   * `secondFactorSetupRequired` when the business requires one) or the challenge.
   * @returns AuthResult to set in cookies, or `SecondFactorPending`
   */
  async afterPassword(
    user: CheckedLogin,
    userAgent: string | null,
  ): Promise<AuthResult | SecondFactorPending> {
    const factors = await this.secondFactor.factors(user.userId);
    if (!factors.totp && !factors.passkey) {
      const result = await this.auth.login(user, userAgent);
      if (await this.secondFactor.setupRequired(user.userId))
        result.user.secondFactorSetupRequired = true;
      return result;
    }
    const challenge = await this.secondFactor.openChallenge(
      user.userId,
      user.passwordChangeRequired === true,
    );
    return { secondFactorRequired: true, challenge, ...factors };
  }

  /**
   * The code of a challenge: opens the session.
   * @throws SecondFactorInputException 400 when the code has neither shape
   * @throws SecondFactorCodeWrongException 400 (counted on the challenge and on the account)
   * @throws SecondFactorChallengeExpiredException 401 unknown, used, expired or out of attempts
   * @throws ThrottlerException 429 when this wrong code pauses the account's sign-in
   */
  async answer(challenge: unknown, code: unknown, userAgent: string | null): Promise<AuthResult> {
    const row = await this.secondFactor.answerChallenge(challenge, code, (email) =>
      this.throttle.countAccountAttempt(email, () => this.resets.signInPaused(email)),
    );
    const session = await this.sessions.open(row.userId, userAgent);
    const result = await this.auth.result(row.userId, session);
    if (row.passwordChangeRequired) result.user.passwordChangeRequired = true;
    return result;
  }
}
