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
import { appSecretKey, openSecret, sealSecret, SealedSecretError } from '@grove/sealed-secret';
import { AppConfig } from '../../config/app-config';
import type { BusinessScope } from '../../database/business-scope';
import { hashRefreshToken, newRefreshToken, verifyPassword } from '../auth-tokens';
import { NotSignedInException } from '../auth.exceptions';
import { SessionsService } from '../sessions.service';
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
  /** Passkeys registered. */
  passkeys: number;
  /** An app or a passkey: a second factor the business's requirement accepts. */
  hasFactor: boolean;
  /** Unused recovery codes (0 without a second factor). */
  recoveryCodesLeft: number;
  /** The business requires a second factor of every member of staff. */
  businessRequires: boolean;
  /**
   * The account has a password the person chose; false when they joined with a passkey and set
   * none since (Security offers 'Set a password' instead of 'Change password').
   */
  passwordSet: boolean;
}

/** What proves the user before a factor changes: a code (app or recovery) or the password. */
export interface FactorProof {
  code?: unknown;
  password?: unknown;
}

/**
 * The proof as given, checked for shape.
 * @throws SecondFactorInputException 400 when neither a code nor a password is given, or the code
 *   has neither shape
 */
function proofOf(proof: FactorProof): { password: string; code: string } {
  const password = typeof proof.password === 'string' ? proof.password : '';
  const code = typeof proof.code === 'string' ? proof.code.trim() : '';
  if (!password && !code)
    throw new SecondFactorInputException(SECOND_FACTOR_MESSAGES.disableNeedsProof);
  if (code && validateSecondFactorCode(code) !== null) throw new SecondFactorInputException();
  return { password, code };
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
    private readonly sessions: SessionsService,
  ) {}

  /** The Security card's state of the signed-in user. */
  async status(scope: BusinessScope, user: AuthUser): Promise<SecondFactorStatus> {
    const totp = await this.repository.totpOf(scope, user.userId);
    const confirmed = totp?.confirmed === true;
    const passkeys = await this.repository.passkeyCount(scope, user.userId);
    return {
      totp: confirmed,
      passkeys,
      hasFactor: confirmed || passkeys > 0,
      recoveryCodesLeft: await this.repository.recoveryCodesLeft(scope, user.userId),
      businessRequires: await this.repository.businessRequires(user.userId),
      passwordSet: await this.repository.passwordChosen(scope, user.userId),
    };
  }

  /**
   * The owner requires (or no longer requires) a second factor of every member of staff: one
   * without is sent to set one up at their next sign-in. The owner must have one first.
   * @throws SecondFactorStateException 409 'Set up your own authenticator app first.' when
   *   requiring it without an app or a passkey of their own
   */
  async setBusinessRequirement(
    scope: BusinessScope,
    user: AuthUser,
    required: boolean,
  ): Promise<SecondFactorStatus> {
    if (required && !(await this.status(scope, user)).hasFactor)
      throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.requireOwnFirst);
    await this.repository.setBusinessRequires(scope, required);
    // Staff's next request reads the requirement (`SecondFactorGate`), not a trusted session's.
    this.sessions.forgetBusiness(scope.businessId);
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
      await this.repository.confirm(manager, user.userId, step, this.hashes(codes));
    });
    this.sessions.forgetUser(user.userId);
    return codes;
  }

  /**
   * Turns the app off after a proof: a code from the app, a recovery code or the password (ASVS
   * 2.8.x: removing a factor needs a factor). The recovery codes go too unless a passkey remains.
   * @throws SecondFactorInputException 400 when neither a code nor a password is given
   * @throws SecondFactorCodeWrongException 400 'That code or password is not correct.'
   * @throws SecondFactorStateException 409 when no app is set up
   */
  async disableTotp(scope: BusinessScope, user: AuthUser, proof: FactorProof): Promise<void> {
    const given = proofOf(proof);
    if (!(await this.repository.totpOf(scope, user.userId))?.confirmed)
      throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.notEnrolled);
    await this.proven(scope, user, given, (manager) =>
      this.repository.remove(manager, user.userId),
    );
  }

  /**
   * Replaces the recovery codes with 10 new ones after a proof (a code from the app, a recovery
   * code or the password): the old ones stop working at once; the new ones are shown once
   * (`xxxxx-xxxxx`; only their SHA-256 is kept). docs/product.md#second-factor.
   * @returns the 10 new codes
   * @throws SecondFactorInputException 400 when neither a code nor a password is given
   * @throws SecondFactorCodeWrongException 400 'That code or password is not correct.'
   * @throws SecondFactorStateException 409 'Set up an authenticator app or a passkey first.' when
   *   the user has no second factor
   */
  async replaceRecoveryCodes(
    scope: BusinessScope,
    user: AuthUser,
    proof: FactorProof,
  ): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.proven(scope, user, proofOf(proof), async (manager) => {
      if (!(await this.repository.hasFactor(manager, user.userId)))
        throw new SecondFactorStateException(SECOND_FACTOR_MESSAGES.noFactor);
      await this.repository.replaceRecoveryCodes(manager, user.userId, this.hashes(codes));
    });
    return codes;
  }

  /**
   * Runs `work` in one transaction once the user proved it is them (ASVS 2.8.x: removing a factor
   * needs a factor): a code from the app, a recovery code or the password, as 'Turn off' asks
   * (a passkey's removal, `PasskeysService.remove`). A code is used inside the transaction, so a
   * `work` that throws leaves it unused.
   * @throws SecondFactorInputException 400 when neither a code nor a password is given
   * @throws SecondFactorCodeWrongException 400 'That code or password is not correct.'
   */
  whenProven(
    scope: BusinessScope,
    user: AuthUser,
    proof: FactorProof,
    work: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    return this.proven(scope, user, proofOf(proof), work);
  }

  /**
   * Runs `work` in one transaction once the proof (`proofOf`) holds: the password (checked first,
   * outside the transaction: argon2id is slow), or a code from the app or a recovery code (used
   * inside it, so a refused `work` leaves the code unused).
   * @throws SecondFactorCodeWrongException 400 'That code or password is not correct.'
   */
  private async proven(
    scope: BusinessScope,
    user: AuthUser,
    { password, code }: { password: string; code: string },
    work: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    if (password) {
      const hash = await this.repository.passwordHash(scope, user.userId);
      if (!hash || !(await verifyPassword(hash, password)))
        throw new SecondFactorCodeWrongException(SECOND_FACTOR_MESSAGES.disableProofWrong);
    }
    await this.repository.transaction(async (manager) => {
      if (!password && !(await this.useCode(manager, user.userId, code)))
        throw new SecondFactorCodeWrongException(SECOND_FACTOR_MESSAGES.disableProofWrong);
      await work(manager);
    });
  }

  /** How recovery codes are stored: the SHA-256 of each normalised code. */
  private hashes(codes: string[]): string[] {
    return codes.map((one) => recoveryCodeHash(normaliseSecondFactorCode(one)));
  }

  /**
   * The second factors `userId` has: a confirmed app (`totp`), passkeys (`passkey`). Either
   * makes a right password open the sign-in's second step instead of a session.
   */
  async factors(userId: string): Promise<{ totp: boolean; passkey: boolean }> {
    return this.repository.factors(userId);
  }

  /** Whether `userId` must give a second factor after their password (an app or a passkey). */
  async required(userId: string): Promise<boolean> {
    const { totp, passkey } = await this.factors(userId);
    return totp || passkey;
  }

  /** Whether the user has a second factor (a confirmed app or a passkey), inside `manager`'s transaction. */
  hasFactor(manager: EntityManager, userId: string): Promise<boolean> {
    return this.repository.hasFactor(manager, userId);
  }

  /**
   * Gives the user 10 new recovery codes (the old ones end), inside `manager`'s transaction: a
   * first passkey brings them as a confirmed app does.
   * @returns the codes, shown once
   */
  async giveRecoveryCodes(manager: EntityManager, userId: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.repository.replaceRecoveryCodes(manager, userId, this.hashes(codes));
    return codes;
  }

  /** Deletes the user's recovery codes when they have no second factor left (a passkey removed). */
  dropRecoveryCodesWithoutFactor(manager: EntityManager, userId: string): Promise<void> {
    return this.repository.dropRecoveryCodesWithoutFactor(manager, userId);
  }

  /**
   * The user of a live sign-in challenge (the login's 202), for a passkey to answer it.
   * @throws SecondFactorChallengeExpiredException 401 when unknown, used, expired or out of attempts
   */
  async challengeUser(challenge: string): Promise<string> {
    const live = await this.repository.transaction((manager) =>
      this.repository.liveChallenge(manager, hashRefreshToken(challenge), CHALLENGE_MAX_FAILURES),
    );
    if (!live) throw new SecondFactorChallengeExpiredException();
    return live.userId;
  }

  /** Ends the user's pending sign-in challenges (a passkey signed them in). */
  endChallenges(userId: string): Promise<void> {
    return this.repository.endChallenges(userId);
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
    this.sealKey ??= appSecretKey(this.config.jwtSecret, 'grove/totp-secret/v1');
    return this.sealKey;
  }
}
