import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  type VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthUser } from '../../common/auth-user';
import { AppConfig } from '../../config/app-config';
import type { BusinessScope } from '../../database/business-scope';
import { NotSignedInException } from '../auth.exceptions';
import { SecondFactorService, type FactorProof } from '../second-factor/second-factor.service';
import { SessionsService } from '../sessions.service';
import {
  PasskeyConfirmException,
  LastPasskeyWithoutPasswordException,
  PasskeyNotFoundException,
  PasskeyRegistrationException,
  PasskeySignInException,
  PasskeyTakenException,
} from './passkeys.exceptions';
import { PasskeysRepository, type PasskeyRow } from './passkeys.repository';

/** How long a WebAuthn challenge lives (seconds), and the browser's own timeout. */
export const PASSKEY_CHALLENGE_TTL_SECONDS = 300;

/** A registration the browser answered and `@simplewebauthn/server` verified, not stored yet. */
export type VerifiedPasskey = NonNullable<VerifiedRegistrationResponse['registrationInfo']>;

/** A passkey just stored; the account's first second factor also brings its recovery codes. */
export interface AddedPasskey {
  passkey: PasskeyRow;
  recoveryCodes?: string[];
}

/** Who a passkey sign-in proved. */
export interface PasskeySignedIn {
  userId: string;
}

/**
 * Passkeys (issue 34 item 3, docs/product.md#passkeys, docs/decisions/passkeys.md): WebAuthn
 * with `@simplewebauthn/server`. The relying party is PUBLIC_ORIGIN (`AppConfig.publicOrigin`):
 * its host is the RP ID and the only accepted origin. Registration asks for a discoverable
 * credential (`residentKey: 'required'`) with user verification (`required`), attestation
 * `'none'`. Every challenge is stored server-side (`webauthn_challenges`), lives 5 minutes and is
 * deleted when used; a sign-in checks the signature counter (a counter that did not grow is
 * refused by the library; a concurrent use of the same counter loses). A passkey with user
 * verification is a multi-factor authenticator (something you have + a PIN or biometric): it
 * signs in alone and counts as the second factor a business requires.
 */
@Injectable()
export class PasskeysService {
  private readonly logger = new Logger(PasskeysService.name);

  constructor(
    private readonly repository: PasskeysRepository,
    private readonly config: AppConfig,
    private readonly secondFactor: SecondFactorService,
    private readonly sessions: SessionsService,
  ) {}

  /** The signed-in user's passkeys, oldest first. */
  list(scope: BusinessScope, user: AuthUser): Promise<PasskeyRow[]> {
    return this.repository.list(scope, user.userId);
  }

  /**
   * Registration options for the signed-in user (their existing passkeys excluded), its
   * challenge stored for 5 minutes (the user's earlier registration challenge ends).
   * @throws NotSignedInException 401 when the user no longer exists
   */
  async registrationOptions(scope: BusinessScope, user: AuthUser): Promise<object> {
    const who = await this.repository.userOf(scope, user.userId);
    if (!who) throw new NotSignedInException();
    const options = await this.creationOptions(
      { userId: user.userId, ...who },
      await this.repository.credentialsOf(user.userId),
    );
    await this.repository.openChallenge(
      options.challenge,
      'registration',
      user.userId,
      PASSKEY_CHALLENGE_TTL_SECONDS,
    );
    return options;
  }

  /**
   * Registration options for an invitee who accepts with a passkey instead of a first password
   * (issue 34 item 1, docs/product.md#staff-accounts): the same options as `registrationOptions`
   * for the account the invitation will create (its id chosen now, as the passkey's user handle);
   * the challenge is bound to the invitation for 5 minutes (the invitation's earlier one ends).
   * @param invitation the pending invitation the link's token named (checked by the caller)
   * @param displayName the invitee's name, as the authenticator shows it
   */
  async invitationOptions(
    invitation: { id: string; email: string },
    displayName: string,
  ): Promise<object> {
    const newUserId = randomUUID();
    const options = await this.creationOptions(
      { userId: newUserId, email: invitation.email, displayName },
      [],
    );
    await this.repository.openInvitationChallenge(
      options.challenge,
      invitation.id,
      newUserId,
      PASSKEY_CHALLENGE_TTL_SECONDS,
    );
    return options;
  }

  /**
   * Adds the passkey the browser created from the user's registration options. The account's
   * first second factor (no app, no other passkey) also gets 10 recovery codes, shown once.
   * @param name the passkey's name (checked by the DTO: contracts' `validatePasskeyName`)
   * @returns the passkey, and the recovery codes when this is the first second factor
   * @throws PasskeyRegistrationException 400 when it does not verify (challenge unknown, used,
   *   expired or another user's; origin, RP ID, user verification or attestation wrong)
   * @throws PasskeyTakenException 409 when that credential is registered already
   */
  async add(
    scope: BusinessScope,
    user: AuthUser,
    name: string,
    response: unknown,
  ): Promise<AddedPasskey> {
    const registration = await this.verifyRegistration(response, (challenge) =>
      this.useChallenge(challenge, 'registration', user.userId),
    );
    const added = await this.repository.transaction((manager) =>
      this.addVerified(scope, user.userId, name, registration, manager),
    );
    // The business's requirement (`SecondFactorGate`) is met from the next request on.
    this.sessions.forgetUser(user.userId);
    return added;
  }

  /**
   * Verifies an invitee's passkey: the browser's answer to `invitationOptions` for this
   * invitation (the challenge live, used now and bound to `invitationId`; origin, RP ID and user
   * verification as for any registration). Nothing is stored: `addVerified` stores it in the
   * invitation's transaction.
   * @returns the verified passkey and the id the new member of staff must get (its user handle)
   * @throws PasskeyRegistrationException 400 'This passkey could not be added. Please try again.'
   *   when it does not verify (challenge unknown, used, expired or another invitation's)
   */
  async verifyInvitationRegistration(
    invitationId: string,
    response: unknown,
  ): Promise<{ newUserId: string; registration: VerifiedPasskey }> {
    const bound = { newUserId: '' };
    const registration = await this.verifyRegistration(response, async (challenge) => {
      const used = await this.repository.useInvitationChallenge(challenge);
      if (used?.invitationId !== invitationId) return false;
      bound.newUserId = used.newUserId;
      return true;
    });
    if (!bound.newUserId) throw new PasskeyRegistrationException();
    return { newUserId: bound.newUserId, registration };
  }

  /**
   * Stores a verified passkey for the scoped user inside `manager`'s transaction; the account's
   * first second factor (no app, no other passkey) also gets 10 recovery codes, shown once.
   * @param name the passkey's name (contracts' `validatePasskeyName`, checked by the caller)
   * @throws PasskeyTakenException 409 when that credential is registered already (to anyone)
   */
  async addVerified(
    scope: BusinessScope,
    userId: string,
    name: string,
    registration: VerifiedPasskey,
    manager: EntityManager,
  ): Promise<AddedPasskey> {
    const { credential } = registration;
    const first = !(await this.secondFactor.hasFactor(manager, userId));
    const passkey = await this.repository.add(
      scope,
      userId,
      {
        credentialId: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
        backedUp: registration.credentialBackedUp,
        name: name.trim(),
      },
      manager,
    );
    if (!passkey) throw new PasskeyTakenException();
    if (!first) return { passkey };
    return { passkey, recoveryCodes: await this.secondFactor.giveRecoveryCodes(manager, userId) };
  }

  /**
   * Removes one of the signed-in user's passkeys after the same proof as turning the app off (a
   * code from the app, a recovery code or the password; ASVS 2.8.x: the session alone cannot
   * remove a factor); the recovery codes go too when no second factor is left. A code given is
   * used only when the passkey is removed.
   * @throws SecondFactorInputException 400 when neither a code nor a password is given
   * @throws SecondFactorCodeWrongException 400 'That code or password is not correct.'
   * @throws PasskeyNotFoundException 404 when the user has no such passkey (another user's
   *   included)
   * @throws LastPasskeyWithoutPasswordException 409 'Set a password before removing your last
   *   passkey.' for the last passkey of an account that joined with a passkey and never set a
   *   password (docs/product.md#set-a-password; nothing removed, a code stays unused)
   */
  async remove(
    scope: BusinessScope,
    user: AuthUser,
    id: string,
    proof: FactorProof,
  ): Promise<void> {
    await this.secondFactor.whenProven(scope, user, proof, async (manager) => {
      const outcome = await this.repository.remove(scope, user.userId, id, manager);
      if (outcome === 'missing') throw new PasskeyNotFoundException();
      if (outcome === 'last') throw new LastPasskeyWithoutPasswordException();
      await this.secondFactor.dropRecoveryCodesWithoutFactor(manager, user.userId);
    });
    this.sessions.forgetUser(user.userId);
  }

  /**
   * Sign-in options: without `passwordChallenge`, for any passkey of Grove (the browser offers
   * the user's discoverable ones); with the login's 202 challenge, only that user's passkeys.
   * The challenge is stored for 5 minutes.
   * @throws SecondFactorChallengeExpiredException 401 when `passwordChallenge` is not live
   */
  async signInOptions(passwordChallenge?: string): Promise<object> {
    const userId = passwordChallenge
      ? await this.secondFactor.challengeUser(passwordChallenge)
      : null;
    const options = await generateAuthenticationOptions({
      rpID: this.rpId(),
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
      ...(userId ? { allowCredentials: await this.repository.credentialsOf(userId) } : {}),
    });
    await this.repository.openChallenge(
      options.challenge,
      'authentication',
      userId,
      PASSKEY_CHALLENGE_TTL_SECONDS,
    );
    return options;
  }

  /**
   * Verifies a passkey sign-in: the passkey is known (and the challenge's user's, when the
   * password came first), the challenge live and used now, origin and RP ID Grove's, the user
   * verified, the signature right and the counter grown; records the counter and the time, and
   * ends the user's pending password step.
   * @returns the user to open a session for
   * @throws PasskeySignInException 401 otherwise
   */
  async signIn(response: unknown): Promise<PasskeySignedIn> {
    const userId = await this.verifyAssertion(
      response,
      (passkeyUser, challengeUser) => !challengeUser || challengeUser === passkeyUser,
    );
    await this.secondFactor.endChallenges(userId);
    return { userId };
  }

  /**
   * Options for the signed-in user to confirm it is them with one of their own passkeys before
   * a sensitive change ('Set a password', docs/decisions/passkeys.md; ASVS 4.0.3 V3.7.1): only
   * their passkeys allowed, user verification required, the challenge stored for 5 minutes with
   * their id (their earlier one ends).
   * @throws PasskeyConfirmException 400 when the user has no passkey
   */
  async confirmOptions(user: AuthUser): Promise<object> {
    const credentials = await this.repository.credentialsOf(user.userId);
    if (credentials.length === 0) throw new PasskeyConfirmException();
    const options = await generateAuthenticationOptions({
      rpID: this.rpId(),
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
      allowCredentials: credentials,
    });
    await this.repository.openChallenge(
      options.challenge,
      'authentication',
      user.userId,
      PASSKEY_CHALLENGE_TTL_SECONDS,
    );
    return options;
  }

  /**
   * Checks the browser's answer to `confirmOptions`: a passkey of the signed-in user, answering a
   * live challenge handed to that user (used now), user verified, signature and counter right
   * (as a sign-in; the counter and time are recorded). Opens no session.
   * @throws PasskeyConfirmException 400 "Your passkey could not confirm it's you…" otherwise
   *   (another user's passkey or challenge included)
   */
  async confirm(user: AuthUser, response: unknown): Promise<void> {
    try {
      await this.verifyAssertion(
        response,
        (passkeyUser, challengeUser) =>
          passkeyUser === user.userId && challengeUser === user.userId,
      );
      return;
    } catch (error) {
      if (!(error instanceof PasskeySignInException)) throw error;
    }
    throw new PasskeyConfirmException();
  }

  /**
   * Verifies a passkey's answer to stored authentication options (the challenge used once);
   * when `accepts` the passkey's user and the user the challenge was handed to (null: a
   * passwordless sign-in's options), records the new counter and the time of use.
   * @returns the passkey's user
   * @throws PasskeySignInException 401 when it does not verify or `accepts` refuses
   */
  private async verifyAssertion(
    response: unknown,
    accepts: (passkeyUser: string, challengeUser: string | null) => boolean,
  ): Promise<string> {
    const answer = response as AuthenticationResponseJSON;
    const stored =
      typeof answer?.id === 'string' ? await this.repository.byCredentialId(answer.id) : null;
    if (!stored) throw new PasskeySignInException();
    let challengeUser: string | null | undefined;
    let newCounter: number;
    try {
      const verified = await verifyAuthenticationResponse({
        response: answer,
        expectedChallenge: async (challenge) => {
          const used = await this.repository.useChallenge(challenge, 'authentication');
          challengeUser = used?.userId;
          return used !== null;
        },
        expectedOrigin: this.config.publicOrigin,
        expectedRPID: this.rpId(),
        credential: {
          id: stored.credentialId,
          publicKey: stored.publicKey,
          counter: stored.counter,
          transports: stored.transports,
        },
        requireUserVerification: true,
      });
      if (!verified.verified) throw new PasskeySignInException();
      newCounter = verified.authenticationInfo.newCounter;
    } catch (error) {
      if (error instanceof PasskeySignInException) throw error;
      this.logger.warn(`A passkey sign-in did not verify: ${(error as Error).message}`);
      throw new PasskeySignInException();
    }
    if (!accepts(stored.userId, challengeUser ?? null)) throw new PasskeySignInException();
    if (!(await this.repository.recordUse(stored.id, stored.counter, newCounter)))
      throw new PasskeySignInException();
    return stored.userId;
  }

  /**
   * The options `@simplewebauthn/browser`'s `startRegistration` takes for `who`: a discoverable
   * credential with user verification, attestation 'none', `exclude` not registered twice.
   */
  private creationOptions(
    who: { userId: string; email: string; displayName: string },
    exclude: { id: string; transports: string[] }[],
  ) {
    return generateRegistrationOptions({
      rpName: 'Grove',
      rpID: this.rpId(),
      userName: who.email,
      userDisplayName: who.displayName,
      userID: new TextEncoder().encode(who.userId),
      timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
      attestationType: 'none',
      excludeCredentials: exclude,
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
  }

  /**
   * Verifies the browser's answer to registration options: `expectedChallenge` uses the stored
   * challenge (once); origin and RP ID Grove's, the user verified.
   * @throws PasskeyRegistrationException 400 when it does not verify
   */
  private async verifyRegistration(
    response: unknown,
    expectedChallenge: (challenge: string) => Promise<boolean>,
  ): Promise<VerifiedPasskey> {
    try {
      const verified = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge,
        expectedOrigin: this.config.publicOrigin,
        expectedRPID: this.rpId(),
        requireUserVerification: true,
      });
      if (!verified.verified || !verified.registrationInfo)
        throw new PasskeyRegistrationException();
      return verified.registrationInfo;
    } catch (error) {
      if (error instanceof PasskeyRegistrationException) throw error;
      this.logger.warn(`A passkey registration did not verify: ${(error as Error).message}`);
      throw new PasskeyRegistrationException();
    }
  }

  /** Uses a stored challenge of `purpose` (once), and for a registration checks it is `userId`'s. */
  private async useChallenge(
    challenge: string,
    purpose: 'registration',
    userId: string,
  ): Promise<boolean> {
    const used = await this.repository.useChallenge(challenge, purpose);
    return used !== null && used.userId === userId;
  }

  /** The RP ID: PUBLIC_ORIGIN's host name (no port). */
  private rpId(): string {
    return new URL(this.config.publicOrigin).hostname;
  }
}
