import { HttpStatus } from '@nestjs/common';
import { SECOND_FACTOR_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../common/grove.exception';

/** A code of the wrong shape, or a missing field. → 400 */
export class SecondFactorInputException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor(message: string = SECOND_FACTOR_MESSAGES.codeInvalid) {
    super(message);
  }
}

/** A well-formed code that is not right (or already used). → 400 */
export class SecondFactorCodeWrongException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor(message: string = SECOND_FACTOR_MESSAGES.codeWrong) {
    super(message);
  }
}

/** The sign-in's second step is unknown, used, expired or out of attempts. → 401 */
export class SecondFactorChallengeExpiredException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super(SECOND_FACTOR_MESSAGES.challengeExpired);
  }
}

/** Enrolment in a state that does not allow the step asked. → 409 */
export class SecondFactorStateException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;
}
