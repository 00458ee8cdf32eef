import { HttpStatus } from '@nestjs/common';
import { BUSINESS_CLOSING_MESSAGE, MESSAGES, SIGNUP_CONFIRM_MESSAGES } from '@grove/contracts';
import { FieldErrorsException, GroveException } from '../common/grove.exception';

/** Another account already uses this email (case-insensitive). → 409 `MESSAGES.emailTaken` */
export class EmailTakenException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.emailTaken);
  }
}

/** Login with both fields empty (docs/product.md#validation-login). → 400 'Please add to email and password fields' */
export class LoginFieldsEmptyException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.loginEmpty);
  }
}

/**
 * A login email holding a control character (contracts' `isPlainText`): no account can have it,
 * and the database refuses a NUL. → 400 'Not a valid email address'
 */
export class LoginEmailInvalidException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.invalidEmail);
  }
}

/** Any sign-in failure (docs/product.md#errors). → 401 'Password or username does not match any user' */
export class InvalidCredentialsException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super(MESSAGES.loginFailed);
  }
}

/** No valid session: missing/expired access token, or a session that was revoked. → 401 */
export class NotSignedInException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super('Please log in');
  }
}

/**
 * The refresh token is missing, unknown, expired or revoked. → 401, and the refresh route
 * (`AuthController.refresh`) clears the auth cookies so the browser stops presenting it.
 */
export class RefreshRefusedException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super('Your session has ended. Please log in again.');
  }
}

/** A new password chosen through a reset link broke Grove's password rule. → 400 with `fieldErrors.password` */
export class PasswordResetInvalidException extends FieldErrorsException {
  constructor(fieldErrors: Record<string, string>) {
    super(fieldErrors, MESSAGES.passwordTooShort);
  }
}

/**
 * The reset link's token is unknown, already used or past its 30 minutes. → 400 'This link has
 * expired or has already been used. Ask for a new one.' (nothing changed)
 */
export class PasswordResetLinkInvalidException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.passwordResetLinkInvalid);
  }
}

/** A member of staff other than an owner signs in while the business is closing. → 403 */
export class BusinessClosingException extends GroveException {
  override readonly status = HttpStatus.FORBIDDEN;

  constructor() {
    super(BUSINESS_CLOSING_MESSAGE);
  }
}

/**
 * The sign-up link's token is unknown, already used or past its 24 hours. → 400 'This link has
 * expired or was already used. Sign up again.' (nothing created)
 */
export class SignupLinkInvalidException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(SIGNUP_CONFIRM_MESSAGES.linkInvalid);
  }
}

/**
 * The sign-up link's address got an account after the link was sent. → 409 'An account with this
 * email already exists. Log in instead.' (nothing created)
 */
export class SignupAccountExistsException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(SIGNUP_CONFIRM_MESSAGES.accountExists);
  }
}
