import { HttpStatus } from '@nestjs/common';
import {
  ERASE_MANAGED_MESSAGE,
  ERASED_EMAIL_MESSAGE,
  MEMBER_ALREADY_ERASED_MESSAGE,
} from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** The member's data is already erased. → 409 */
export class AlreadyErasedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MEMBER_ALREADY_ERASED_MESSAGE);
  }
}

/** The member is managed by Mindbody, whose sync would write the data back. → 409 */
export class ErasingManagedMemberException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(ERASE_MANAGED_MESSAGE);
  }
}

/**
 * The email added belongs to a member erased on request; the body may confirm with
 * `confirmErased: true`. → 409 with `fieldErrors.memberEmail`
 */
export class ErasedEmailException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(ERASED_EMAIL_MESSAGE, { memberEmail: ERASED_EMAIL_MESSAGE });
  }
}
