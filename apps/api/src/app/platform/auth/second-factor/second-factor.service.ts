import { hkdfSync } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  normaliseSecondFactorCode,
  RECOVERY_CODE,
  SECOND_FACTOR_MESSAGES,
  TOTP_CODE,
  validateSecondFactorCode,
} from '@grove/contracts';
import * as QRCode from 'qrcode';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth-user';
import { openSecret, sealSecret, SealedSecretError } from '../../common/crypto/sealed-secret';
import { AppConfig } from '../../config/app-config';
import type { BusinessScope } from '../../database/business-scope';
import { hashRefreshToken, newRefreshToken, verifyPassword } from '../auth-tokens';
import { NotSignedInException } from '../auth.exceptions';
import {
  SecondFactorChallengeExpiredException,
  SecondFactorCodeWrongException,
  SecondFactorInputException,
  SecondFactorStateException,
} from './second-factor.exceptions';
import { SecondFactorRepository, type ChallengeRow } from './second-factor.repository';
import { checkTotp, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpUri } from './totp';

/** How long the step between a right password and the code lives (seconds). */
export const CHALLENGE_TTL_SECONDS = 300;
/** Wrong codes one challenge takes before it ends (then the password is asked again). */
export const CHALLENGE_MAX_FAILURES = 5;

/** What Account Settings' Security card shows. */
export interface SecondFactorStatus {
  /** An authenticator app is set up and confirmed. */
  totp: boolean;
  /** Unused recovery codes (0 without an app). */
  recoveryCodesLeft: number;
  /** The business requires a second factor of every member of staff. */
  businessRequires: boolean;
}

/** An enrolment just started: what the owner scans or types into their app. */
export interface TotpEnrolment {
  /** Base32 secret, for typing by hand. */
  secret: string;
  /** `otpauth://totp/Grove:<email>?secret=…&issuer=Grove`. */
  uri: string;
  /** The URI as a QR code, an SVG document. */
  qrSvg: string;
}

/**
 * A second factor at sign-in (issue 34 item 3, docs/product.md#second-factor,
 * docs/decisions/second-factor.md, ASVS 4.0.3 V2.7–V2.8): an authenticator app (TOTP with
 * `otplib`, RFC 6238) and 10 single-use recovery codes (SHA-256 at rest). The app's secret is
 * sealed at rest with AES-256-GCM (`sealSecret`) under a key derived by HKDF-SHA256 from
 * JWT_SECRET. A right password of a user with an app opens a challenge (a 256-bit token, only its
 * SHA-256 stored, 5 minutes, single use, 5 wrong codes at most) instead of a session; the code
 * ends it with a session.
 */
@Injectable()
export class SecondFactorService {
  private readonly logger = new Logger(SecondFactorService.name);
  private sealKey?: Buffer;

  constructor(
    private readonly repository: SecondFactorRepository,
    private readonly config: AppConfig,
  ) {}

  /** The Security card's state of the signed-in user. */
  async status(scope: BusinessScope, user: AuthUser): Promise<SecondFactorStatus> {
    const totp = await this.repository.totpOf(scope, user.userId);
    const confirmed = totp?.confirmed === true;
    return {
      totp: confirmed,
      recoveryCodesLeft: confirmed ? await this.repository.recoveryCodesLeft(user.userId) : 0,
      businessRequires: await this.repository.businessRequires(user.userId),
    };
  }

  /**
   * The owner requires (or no longer requires) a second factor of every member of staff: one
   * without is sent to set one up at their next sign-in. The owner must have one first.
   * @throws SecondFactorStateException 409 'Set up your own authenticator app first.' when
   *   requiring it without one
   */
  async setBusinessRequirement(
    scope: BusinessScope,
    user: AuthUser,
    required: boolean,
  ): Promise<SecondFactorStatus> {
    if (required && !(await this.repository.totpOf(scope, user.userId))?.confirmed)
      throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.requireOwnFirst);
    await this.repository.setBusinessRequires(scope, required);
    return this.status(scope, user);
  }

  /** Whether `userId` has no second factor while their business requires one (sent to set one up). */
  async setupRequired(userId: string): Promise<boolean> {
    return (await this.repository.businessRequires(userId)) && !(await this.required(userId));
  }

  /**
   * Starts setting up an authenticator app: a new secret (an earlier unconfirmed one is
   * replaced), shown once with its QR code; nothing changes at sign-in until it is confirmed.
   * @throws SecondFactorStateException 409 when an app is already confirmed
   * @throws NotSignedInException 401 when the user no longer exists
   */
  async startTotp(scope: BusinessScope, user: AuthUser): Promise<TotpEnrolment> {
    const email = await this.repository.email(scope, user.userId);
    if (!email) throw new NotSignedInException();
    if ((await this.repository.totpOf(scope, user.userId))?.confirmed)
      throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.alreadyEnrolled);
    const secret = newTotpSecret();
    await this.repository.startEnrolment(scope, user.userId, this.seal(secret));
    const uri = totpUri(secret, email);
    const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    return { secret, uri, qrSvg };
  }

  /**
   * Confirms the app with a code it shows: from now on sign-in asks for a code. Gives 10 new
   * recovery codes, shown once (`xxxxx-xxxxx`; only their SHA-256 is kept).
   * @throws SecondFactorInputException 400 'Enter the 6-digit code…' when not 6 digits
   * @throws SecondFactorCodeWrongException 400 when the code is not the app's
   * @throws SecondFactorStateException 409 when no enrolment was started, or it is confirmed already
   */
  async confirmTotp(scope: BusinessScope, user: AuthUser, code: unknown): Promise<string[]> {
    const clean = typeof code === 'string' ? normaliseSecondFactorCode(code) : '';
    if (!TOTP_CODE.test(clean)) throw new SecondFactorInputException();
    const pending = await this.repository.totpOf(scope, user.userId);
    if (!pending) throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.enrolmentMissing);
    if (pending.confirmed)
      throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.alreadyEnrolled);
    const codes = newRecoveryCodes();
    await this.repository.transaction(async (manager) => {
      const row = await this.repository.totp(user.userId, manager);
      if (!row || row.confirmed)
        throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.enrolmentMissing);
      const step = await checkTotp(this.open(row.secretSealed), clean, row.lastTimeStep);
      if (step === null) throw new SecondFactorCodeWrongException();
      await this.repository.confirm(
        manager,
        user.userId,
        step,
        codes.map((one) => recoveryCodeHash(normaliseSecondFactorCode(one))),
      );
    });
    return codes;
  }

  /**
   * Turns the app off (and its recovery codes) after a proof: a code from the app, a recovery
   * code or the password (ASVS 2.8.x: removing a factor needs a factor).
   * @throws SecondFactorInputException 400 when neither a code nor a password is given
   * @throws SecondFactorCodeWrongException 400 'That code or password is not correct.'
   * @throws SecondFactorStateException 409 when no app is set up
   */
  async disableTotp(
    scope: BusinessScope,
    user: AuthUser,
    proof: { code?: unknown; password?: unknown },
  ): Promise<void> {
    const password = typeof proof.password === 'string' ? proof.password : '';
    const code = typeof proof.code === 'string' ? proof.code.trim() : '';
    if (!password && !code)
      throw new SecondFactorInputException(SECOND_FACTOR_MESSAGES.disableNeedsProof);
    if (code && validateSecondFactorCode(code) !== null) throw new SecondFactorInputException();
    const current = await this.repository.totpOf(scope, user.userId);
    if (!current?.confirmed)
      throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.notEnrolled);
    if (password) {
      const hash = await this.repository.passwordHash(scope, user.userId);
      if (!hash || !(await verifyPassword(hash, password)))
        throw new SecondFactorCodeWrongException(SECOND_FACTOR_MESSAGES.disableProofWrong);
    }
    await this.repository.transaction(async (manager) => {
      if (!password && !(await this.useCode(manager, user.userId, code)))
        throw new SecondFactorCodeWrongException(SECOND_FACTOR_MESSAGES.disableProofWrong);
      await this.repository.remove(manager, user.userId);
    });
  }

  /** Whether `userId` must give a code after their password (a confirmed app). */
  async required(userId: string): Promise<boolean> {
    return (await this.repository.totp(userId))?.confirmed === true;
  }

  /**
   * Opens the sign-in's second step for a user whose password was right.
   * @returns the challenge token (256 bits; only its SHA-256 is stored)
   */
  async openChallenge(userId: string, passwordChangeRequired: boolean): Promise<string> {
    const token = newRefreshToken();
    await this.repository.openChallenge(
      userId,
      hashRefreshToken(token),
      CHALLENGE_TTL_SECONDS,
      passwordChangeRequired,
    );
    return token;
  }

  /**
   * Ends a challenge with a code from the app or a recovery code (each accepted once).
   * @returns the challenge's user, whose session may now open
   * @throws SecondFactorInputException 400 when the code has neither shape
   * @throws SecondFactorChallengeExpiredException 401 when the challenge is unknown, used, past
   *   its 5 minutes or its 5 wrong codes
   * @throws SecondFactorCodeWrongException 400 when the code is not right (counted on the
   *   challenge; `onWrong` runs first with the user's email)
   */
  async answerChallenge(
    challenge: unknown,
    code: unknown,
    onWrong: (email: string) => Promise<void>,
  ): Promise<ChallengeRow> {
    if (typeof challenge !== 'string' || challenge === '')
      throw new SecondFactorChallengeExpiredException();
    if (validateSecondFactorCode(code) !== null) throw new SecondFactorInputException();
    const tokenHash = hashRefreshToken(challenge);
    const outcome = await this.repository.transaction(async (manager) => {
      const live = await this.repository.liveChallenge(manager, tokenHash, CHALLENGE_MAX_FAILURES);
      if (!live) throw new SecondFactorChallengeExpiredException();
      const right = await this.useCode(manager, live.userId, code as string);
      if (right) await this.repository.useChallenge(manager, tokenHash);
      return { live, right };
    });
    if (!outcome.right) {
      await this.repository.countFailure(tokenHash);
      await onWrong(outcome.live.email);
      throw new SecondFactorCodeWrongException();
    }
    return outcome.live;
  }

  /** Uses a TOTP code (its step recorded) or a recovery code of `userId`, inside `manager`'s transaction. */
  private async useCode(manager: EntityManager, userId: string, typed: string): Promise<boolean> {
    const clean = normaliseSecondFactorCode(typed);
    if (RECOVERY_CODE.test(clean))
      return this.repository.useRecoveryCode(manager, userId, recoveryCodeHash(clean));
    const row = await this.repository.totp(userId, manager);
    if (!row?.confirmed) return false;
    let secret: string;
    try {
      secret = this.open(row.secretSealed);
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      this.logger.warn(
        `The authenticator secret of user ${userId} cannot be opened (JWT_SECRET changed?)`,
      );
      return false;
    }
    const step = await checkTotp(secret, clean, row.lastTimeStep);
    if (step === null) return false;
    await this.repository.useTimeStep(manager, userId, step);
    return true;
  }

  private seal(secret: string): string {
    return sealSecret(this.key(), secret);
  }

  private open(sealed: string): string {
    return openSecret(this.key(), sealed);
  }

  /** AES-256 key of the app secrets: HKDF-SHA256 of JWT_SECRET (docs/decisions/second-factor.md). */
  private key(): Buffer {
    this.sealKey ??= Buffer.from(
      hkdfSync('sha256', this.config.jwtSecret, 'grove', 'grove/totp-secret/v1', 32),
    );
    return this.sealKey;
  }
}
