import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../common/grove.exception';

/** Signup input broke a docs/product.md#validation-signup rule; `message` is that rule's text. → 400 */
export class SignupInvalidException extends GroveException {}

/** Another account already uses this email (case-insensitive). → 409 `MESSAGES.emailTaken` */
export class EmailTakenException extends GroveException {
  constructor() {
    super(MESSAGES.emailTaken);
  }
}

/** Login with both fields empty (docs/product.md#validation-login). → 400 'Please add to email and password fields' */
export class LoginFieldsEmptyException extends GroveException {
  constructor() {
    super(MESSAGES.loginEmpty);
  }
}

/**
 * A login email holding a control character (contracts' `isPlainText`): no account can have it,
 * and the database refuses a NUL. → 400 'Not a valid email address'
 */
export class LoginEmailInvalidException extends GroveException {
  constructor() {
    super(MESSAGES.invalidEmail);
  }
}

/** Any sign-in failure (docs/product.md#errors). → 401 'Password or username does not match any user' */
export class InvalidCredentialsException extends GroveException {
  constructor() {
    super(MESSAGES.loginFailed);
  }
}

/** No valid session: missing/expired access token, or a session that was revoked. → 401 */
export class NotSignedInException extends GroveException {
  constructor() {
    super('Please log in');
  }
}

/**
 * The refresh token is missing, unknown, expired or revoked. → 401, and the filter clears both
 * auth cookies so the browser stops presenting it.
 */
export class RefreshRefusedException extends GroveException {
  constructor() {
    super('Your session has ended. Please log in again.');
  }
}
