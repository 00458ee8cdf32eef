import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import {
  businessLocale,
  isPlainText,
  passwordProblem,
  SIGNUP_LINK_TTL_HOURS,
  type SessionUser,
  type SignupAccepted,
  type SignupInput,
} from '@grove/contracts';
import { AppConfig } from '../config/app-config';
import type { AuthUser } from '../common/auth-user';
import type { IssuedTokens } from './auth-cookies';
import {
  hashPassword,
  hashRefreshToken,
  newRefreshToken,
  verifyPassword,
  type AccessTokenClaims,
} from './auth-tokens';
import {
  BusinessClosingException,
  InvalidCredentialsException,
  LoginEmailInvalidException,
  LoginFieldsEmptyException,
  NotSignedInException,
  SignupAccountExistsException,
  SignupLinkInvalidException,
} from './auth.exceptions';
import { PendingSignupsRepository, pendingSignupOf } from './pending-signups.repository';
import { signupConfirmEmail, signupTakenEmail } from './signup-emails';
import type { BusinessEntity } from './business.entity';
import { isCommonPassword } from './common-passwords';
import { SessionsService, type OpenedSession } from './sessions.service';
import type { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { EmailVerificationService } from './email-verification/email-verification.service';
import { MailService } from '../mail/mail.service';

/** What a confirmed sign-up, login and refresh return: the user to show and the tokens to put in cookies. */
export interface AuthResult {
  user: SessionUser;
  tokens: IssuedTokens;
}

/**
 * A user whose password login just succeeded (what passport-local puts on the request).
 * `passwordChangeRequired` is set when that password no longer meets Grove's password rule
 * (contracts' `passwordProblem`): the login reply then asks for a new one.
 */
export interface CheckedLogin extends AuthUser {
  passwordChangeRequired?: true;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Accounts and sessions: sign-up by email (a pending sign-up, then business + owner from its link), password login, refresh rotation, logout and
 * the current user. Passwords are argon2id; access tokens are JWTs naming user, business and
 * session; refresh tokens are opaque and stored hashed (see SessionsService).
 */
@Injectable()
export class AuthService {
  /** Verified against when the email is unknown, so both failures take the same time. */
  private readonly dummyHash = hashPassword('grove-timing-equaliser');

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly jwt: JwtService,
    private readonly verification: EmailVerificationService,
    private readonly mail: MailService,
    private readonly pendingSignups: PendingSignupsRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Signs up by email (docs/product.md#signup, issue 31 item 6: no account enumeration, OWASP
   * ASVS 4.0.3 V2/V3). The input is already checked by `SignupDto`'s rule (contracts'
   * `validateSignupInput` with the common-password list, docs/product.md#validation-signup order
   * and messages). The same work for every address: the password is hashed and one email is
   * queued in one transaction, with the sign-up when no account uses the address:
   * - a new address: the form and the password's hash are kept as a pending sign-up (a 256-bit
   *   token, only its SHA-256 stored, 24 hours, once; replacing the address's earlier one) and
   *   the address is emailed the link `/signup/confirm#token=…` ({@link confirmSignup});
   * - a taken address (any case): nothing is stored; the address is emailed 'Someone tried to
   *   create a Grove account with your email' with links to log in and to choose a new password.
   * @returns always `{ status: 'check-email' }`
   */
  async signup(input: SignupInput): Promise<SignupAccepted> {
    const email = input.email.trim();
    const passwordHash = await hashPassword(input.password);
    const token = newRefreshToken();
    const origin = this.config.publicOrigin;
    await this.users.transaction(async (manager) => {
      if (await this.users.emailTaken(manager, email)) {
        await this.mail.queue(signupTakenEmail(email, origin), undefined, manager);
        return;
      }
      const pending = pendingSignupOf(input, passwordHash);
      await this.pendingSignups.replace(
        manager,
        pending,
        hashRefreshToken(token),
        SIGNUP_LINK_TTL_HOURS * 3600,
      );
      await this.mail.queue(signupConfirmEmail(pending, origin, token), undefined, manager);
    });
    this.mail.wake();
    return { status: 'check-email' };
  }

  /**
   * Uses a sign-up link (`POST /api/auth/signup/confirm`): in one transaction marks the pending
   * sign-up used, creates the business and its owner from it, opens this browser's session and
   * marks the business's sender verified: the link proved the owner's address
   * (`EmailVerificationService.verifiedAtSignup`, docs/product.md#verified-senders).
   * @returns the signed-in owner and the session's tokens (the controller sets the cookies)
   * @throws SignupLinkInvalidException 400 when the link is unknown, used or expired (nothing created)
   * @throws SignupAccountExistsException 409 when an account uses the address by now (nothing created)
   */
  async confirmSignup(token: unknown, userAgent: string | null): Promise<AuthResult> {
    if (typeof token !== 'string' || token.length < 20 || token.length > 200)
      throw new SignupLinkInvalidException();
    try {
      const { user, business, session } = await this.users.transaction(async (manager) => {
        const pending = await this.pendingSignups.consume(manager, hashRefreshToken(token));
        if (!pending) throw new SignupLinkInvalidException();
        if (await this.users.emailTaken(manager, pending.email))
          throw new SignupAccountExistsException();
        const { user, business } = await this.users.insertAccount(manager, {
          business: {
            name: pending.businessName,
            website: pending.website,
            phone: pending.phone,
            country: pending.country,
          },
          owner: {
            email: pending.email,
            firstName: pending.firstName,
            lastName: pending.lastName,
            passwordHash: pending.passwordHash,
          },
        });
        const session = await this.sessions.open(user.id, userAgent, manager);
        // The link proved the owner's address: the business's sender is verified (no second link).
        await this.verification.verifiedAtSignup(business.id, manager);
        return { user, business, session };
      });
      this.mail.wake();
      return { user: toSessionUser(user, business), tokens: this.issue(user, session) };
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION)
        throw new SignupAccountExistsException();
      throw error;
    }
  }

  /**
   * Checks an email and password (used by the passport-local strategy). A right password that no
   * longer meets Grove's rule (an older, shorter one, or one now on the common list) still signs
   * in, marked `passwordChangeRequired` (ASVS 2.1: the owner is asked to choose a new one), and
   * is remembered as outdated until it changes (a passkey sign-in asks too: {@link passkeyResult}).
   * @throws LoginFieldsEmptyException 400 when both are empty (docs/product.md#validation-login)
   * @throws LoginEmailInvalidException 400 'Not a valid email address' when the email holds a control character
   * @throws InvalidCredentialsException 401 'Password or username does not match any user'
   * @throws BusinessClosingException 403 for staff other than owners of a closing business
   */
  async validateCredentials(email: unknown, password: unknown): Promise<CheckedLogin> {
    const emailText = typeof email === 'string' ? email.trim() : '';
    const passwordText = typeof password === 'string' ? password : '';
    if (!emailText && !passwordText) throw new LoginFieldsEmptyException();
    if (!emailText || !passwordText) throw new InvalidCredentialsException();
    if (!isPlainText(emailText)) throw new LoginEmailInvalidException();
    const user = await this.users.findByEmailWithBusiness(emailText);
    const matches = await verifyPassword(
      user?.passwordHash ?? (await this.dummyHash),
      passwordText,
    );
    if (!user || !matches) throw new InvalidCredentialsException();
    // A closing business: only an owner signs in, to cancel (docs/product.md#data-rights).
    if (user.business?.closingAt && user.role !== 'owner') throw new BusinessClosingException();
    const outdated = passwordProblem(passwordText, isCommonPassword) !== null;
    // Remembered for a later sign-in with a passkey (docs/decisions/passkeys.md).
    if (outdated) await this.users.markPasswordOutdated(user.id, user.passwordHash);
    return {
      userId: user.id,
      businessId: user.businessId,
      ...(outdated ? { passwordChangeRequired: true } : {}),
    };
  }

  /**
   * Refuses a sign-in without a password (a passkey) where a password sign-in would be refused
   * whatever the password: staff other than owners of a closing business.
   * @throws BusinessClosingException 403 (docs/product.md#data-rights)
   * @throws NotSignedInException 401 when the user no longer exists
   */
  async assertMaySignIn(userId: string): Promise<void> {
    const user = await this.users.findWithBusiness(userId);
    if (!user?.business) throw new NotSignedInException();
    if (user.business.closingAt && user.role !== 'owner') throw new BusinessClosingException();
  }

  /**
   * The reply of a sign-in with a passkey alone (no password typed): the signed-in user as
   * {@link result}, with `passwordChangeRequired: true` while their password is one a password
   * sign-in found no longer meets Grove's rule (docs/decisions/passkeys.md: the still-usable
   * weak password is replaced as at a password sign-in).
   */
  async passkeyResult(userId: string, session: OpenedSession): Promise<AuthResult> {
    const result = await this.result(userId, session);
    if (await this.users.passwordOutdated(userId)) result.user.passwordChangeRequired = true;
    return result;
  }

  /**
   * Opens a session for a user whose password was just checked. The reply's user carries
   * `passwordChangeRequired: true` when that password no longer meets Grove's rule.
   */
  async login(authUser: CheckedLogin, userAgent: string | null): Promise<AuthResult> {
    const session = await this.sessions.open(authUser.userId, userAgent);
    const result = await this.result(authUser.userId, session);
    if (authUser.passwordChangeRequired) result.user.passwordChangeRequired = true;
    return result;
  }

  /**
   * Rotates the refresh token: the presented one is revoked, the next session of its sign-in is
   * opened. A token rotated within the grace window gets the live session's access token and no
   * new refresh token (see `SessionsService.rotate`).
   * @throws RefreshRefusedException 401 (missing, unknown, expired, past the session's deadlines,
   *   revoked; reuse after the grace window ends every session of that sign-in)
   */
  async refresh(refreshToken: string | undefined, userAgent: string | null): Promise<AuthResult> {
    const session = await this.sessions.rotate(refreshToken, userAgent);
    return this.result(session.userId, session);
  }

  /**
   * Ends the sign-in of this refresh token and that of the access token's session (either may be
   * absent: a Bearer-only client sends no refresh cookie).
   */
  async logout(refreshToken: string | undefined, sessionId: string | undefined): Promise<void> {
    await this.sessions.revoke(refreshToken);
    if (sessionId) await this.sessions.revokeById(sessionId);
  }

  /**
   * The signed-in owner and business (`GET /api/auth/me`).
   * @throws NotSignedInException 401 when the user no longer exists
   */
  async me(authUser: AuthUser): Promise<SessionUser> {
    const user = await this.users.findWithBusiness(authUser.userId);
    if (!user?.business) throw new NotSignedInException();
    return toSessionUser(user, user.business);
  }

  /**
   * The reply and cookies of a session just opened for `userId` (login, refresh, a password reset).
   * @throws NotSignedInException 401 when the user no longer exists
   */
  async result(userId: string, session: OpenedSession): Promise<AuthResult> {
    const user = await this.users.findWithBusiness(userId);
    if (!user?.business) throw new NotSignedInException();
    return { user: toSessionUser(user, user.business), tokens: this.issue(user, session) };
  }

  private issue(user: UserEntity, session: OpenedSession): IssuedTokens {
    const claims: AccessTokenClaims = {
      sub: user.id,
      bid: user.businessId,
      sid: session.sessionId,
    };
    return {
      accessToken: this.jwt.sign(claims),
      refreshToken: session.refreshToken,
      sessionExpiresAt: session.expiresAt,
    };
  }
}

/** Maps a user row (with its role) and its business to the `SessionUser` reply. */
export function toSessionUser(user: UserEntity, business: BusinessEntity): SessionUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    username: `${user.firstName} ${user.lastName}`,
    role: user.role,
    business: {
      id: business.id,
      name: business.name,
      country: business.country,
      ...businessLocale(business.country, business.timeZone),
    },
  };
}
