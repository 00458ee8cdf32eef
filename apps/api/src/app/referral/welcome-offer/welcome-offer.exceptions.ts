import { HttpStatus } from '@nestjs/common';
import { WELCOME_OFFER_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** No granted welcome offer with this id in the session's business. → 404 */
export class WelcomeOfferGrantNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(WELCOME_OFFER_MESSAGES.grantNotFound);
  }
}
