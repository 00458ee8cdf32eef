import { HttpStatus } from '@nestjs/common';
import {
  INVITATION_INVALID_MESSAGE,
  LAST_OWNER_MESSAGE,
  MESSAGES,
  STAFF_EMAIL_TAKEN_MESSAGE,
} from '@grove/contracts';
import { FieldErrorsException, GroveException } from '../../platform/common/grove.exception';

/** An invite, role change or invitation form broke its contracts rule. → 400 with `fieldErrors` */
export class TeamInputInvalidException extends FieldErrorsException {
  constructor(fieldErrors: Record<string, string>) {
    super(fieldErrors, MESSAGES.fillAllFields);
  }
}

/** The change would leave the business without an owner. → 409 'A business always keeps at least one owner.' */
export class LastOwnerException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(LAST_OWNER_MESSAGE);
  }
}

/** The invited address already has a Grove account. → 409 'This email already has a Grove account.' */
export class StaffEmailTakenException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(STAFF_EMAIL_TAKEN_MESSAGE, { email: STAFF_EMAIL_TAKEN_MESSAGE });
  }
}

/** The invitation link is unknown, used, revoked or expired. → 400 'This invitation link is no longer valid…' */
export class InvitationInvalidException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(INVITATION_INVALID_MESSAGE);
  }
}

/** No such member of staff or pending invitation in the caller's business. → 404 */
export class TeamEntryNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super('This member of staff or invitation was not found.');
  }
}
