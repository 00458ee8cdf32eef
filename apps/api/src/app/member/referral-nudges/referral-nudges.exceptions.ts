import { HttpStatus } from '@nestjs/common';
import { REFERRAL_NUDGE_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** A nudge preview for a business with no member to render it for. → 404 */
export class ReferralNudgeNoExampleException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(REFERRAL_NUDGE_MESSAGES.noExample);
  }
}
