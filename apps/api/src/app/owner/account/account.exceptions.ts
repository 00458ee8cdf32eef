import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
import { FieldErrorsException, GroveException } from '../../platform/common/grove.exception';

/** An account field broke a docs/product.md#validation-signup signup rule. → 400 with `fieldErrors` (first one as `message`). */
export class AccountInvalidException extends FieldErrorsException {
  constructor(fieldErrors: Record<string, string>) {
    super(fieldErrors, MESSAGES.fillAllFields);
  }
}

/**
 * 'Set a password' on an account whose password its person chose already (they change it with
 * the current one). → 409 'Your account already has a password. Use Change password instead.'
 */
export class PasswordAlreadySetException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.passwordAlreadySet);
  }
}

/** The current password given to change it is wrong. → 400 'Your current password is not correct' */
export class CurrentPasswordWrongException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.currentPasswordWrong, { currentPassword: MESSAGES.currentPasswordWrong });
  }
}
