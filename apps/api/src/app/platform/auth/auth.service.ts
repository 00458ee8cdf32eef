import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import {
  businessLocale,
  isPlainText,
  passwordProblem,
  type SessionUser,
  type SignupInput,
} from '@grove/contracts';
import type { AuthUser } from '../common/auth-user';
import type { IssuedTokens } from './auth-cookies';
import { hashPassword, verifyPassword, type AccessTokenClaims } from './auth-tokens';
import {
  BusinessClosingException,
  EmailTakenException,
  InvalidCredentialsException,
  LoginEmailInvalidException,
  LoginFieldsEmptyException,
  NotSignedInException,
} from './auth.exceptions';
import type { BusinessEntity } from './business.entity';
import { isCommonPassword } from './common-passwords';
import { SessionsService, type OpenedSession } from './sessions.service';
import type { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { EmailVerificationService } from './email-verification/email-verification.service';
import { MailService } from '../mail/mail.service';

/** What signup, login and refresh return: the user to show and the tokens to put in cookies. */
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
 * Accounts and sessions: signup (business + owner), password login, refresh rotation, logout and
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
  ) {}

  /**
   * Creates a business and its owner in one transaction and signs the owner in. The input is
   * already checked by `SignupDto`'s rule (contracts' `validateSignupInput` with the
   * common-password list, docs/product.md#validation-signup order and messages).
   * @throws EmailTakenException 409 when the email is used by another account (case-insensitive)
   */
  async signup(input: SignupInput, userAgent: string | null): Promise<AuthResult> {
    const email = input.email.trim();
    const passwordHash = await hashPassword(input.password);
    try {
      const { user, business, session } = await this.users.transaction(async (manager) => {
        if (await this.users.emailTaken(manager, email)) throw new EmailTakenException();
        const { user, business } = await this.users.insertAccount(manager, {
          business: {
            name: input.businessName.trim(),
            website: input.website.trim(),
            phone: input.phoneNumber.trim(),
            country: input.country,
          },
          owner: {
            email,
            firstName: input.firstName.trim(),
            lastName: input.lastName.trim(),
            passwordHash,
          },
        });
        const session = await this.sessions.open(user.id, userAgent, manager);
        // Grove emails members for the business only once the owner verified their email.
        await this.verification.sendAtSignup(user.id, manager);
        return { user, business, session };
      });
      this.mail.wake();
      return { user: toSessionUser(user, business), tokens: this.issue(user, session) };
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new EmailTakenException();
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
