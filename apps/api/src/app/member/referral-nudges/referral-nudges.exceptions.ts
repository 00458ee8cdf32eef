import { HttpStatus } from '@nestjs/common';
import { REFERRAL_NUDGE_MESSAGES } from '@grove/contracts';
import { FieldErrorsException, GroveException } from '../../platform/common/grove.exception';

/**
 * The invitation after a number of visits at a business whose billing/CRM does not tell visits
 * (Mindbody not connected, or its members not imported). → 400 `fieldErrors.inviteAfterVisits`
 */
export class ReferralNudgeVisitsUnavailableException extends FieldErrorsException {
  constructor() {
    super(
      { inviteAfterVisits: REFERRAL_NUDGE_MESSAGES.visitsNeedMindbody },
      REFERRAL_NUDGE_MESSAGES.visitsNeedMindbody,
    );
  }
}

/** A nudge preview for a business with no member to render it for. → 404 */
export class ReferralNudgeNoExampleException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(REFERRAL_NUDGE_MESSAGES.noExample);
  }
}
