import { HttpStatus } from '@nestjs/common';
import { MEMBER_PAGE_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** An unsubscribe token no member has. → 404 */
export class UnsubscribeTokenUnknownException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MEMBER_PAGE_MESSAGES.unsubscribeUnknown);
  }
}
