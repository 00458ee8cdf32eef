import { HttpStatus } from '@nestjs/common';
import { AUDIT_MESSAGES } from '@grove/contracts';
import { GroveException } from '../common/grove.exception';

/** A period day that is no calendar day, or an end before the start. → 400 */
export class AuditPeriodInvalidException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor(message: string = AUDIT_MESSAGES.periodInvalid) {
    super(message);
  }
}
