import { HttpStatus } from '@nestjs/common';
import {
  ALREADY_CLOSING_MESSAGE,
  CLOSURE_PASSWORD_MESSAGE,
  NOT_CLOSING_MESSAGE,
} from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** The password given to close the account is wrong or missing. → 400 with `fieldErrors.password` */
export class ClosurePasswordException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(CLOSURE_PASSWORD_MESSAGE, { password: CLOSURE_PASSWORD_MESSAGE });
  }
}

/** The business is already closing. → 409 */
export class AlreadyClosingException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(ALREADY_CLOSING_MESSAGE);
  }
}

/** The business is not closing. → 409 */
export class NotClosingException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(NOT_CLOSING_MESSAGE);
  }
}
