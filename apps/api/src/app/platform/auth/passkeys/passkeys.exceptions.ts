import { HttpStatus } from '@nestjs/common';
import { PASSKEY_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../common/grove.exception';

/** A registration that did not verify (challenge unknown, used or expired; origin, RP ID or signature wrong). → 400 */
export class PasskeyRegistrationException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor(message: string = PASSKEY_MESSAGES.registrationFailed) {
    super(message);
  }
}

/** The credential is already registered (to this account or another). → 409 */
export class PasskeyTakenException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(PASSKEY_MESSAGES.alreadyRegistered);
  }
}

/** A passkey sign-in that did not verify (unknown passkey, challenge, signature, counter). → 401 */
export class PasskeySignInException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super(PASSKEY_MESSAGES.signInFailed);
  }
}

/**
 * The signed-in user's passkey did not confirm it is them (no passkey, another user's passkey or
 * challenge, a used or expired challenge, no user verification). → 400 (not 401: the session
 * stays signed in)
 */
export class PasskeyConfirmException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(PASSKEY_MESSAGES.confirmFailed);
  }
}

/** No such passkey of the signed-in user. → 404 */
export class PasskeyNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(PASSKEY_MESSAGES.notFound);
  }
}

/**
 * The last passkey of an account whose person never chose a password (joined with a passkey,
 * `users.password_chosen` false): removing it would leave no way in but a reset link. → 409
 */
export class LastPasskeyWithoutPasswordException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(PASSKEY_MESSAGES.lastWithoutPassword);
  }
}
