import { HttpStatus } from '@nestjs/common';
import { MEMBER_PAGE_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';
import { tooManyAttemptsMessage } from '../../platform/throttle/throttling';

/** Too many new-link requests from one client address or for one email address. → 429 */
export class TooManyLinkRequestsException extends GroveException {
  override readonly status = HttpStatus.TOO_MANY_REQUESTS;

  /** @param waitSeconds how long until the client may ask again */
  constructor(waitSeconds: number) {
    super(tooManyAttemptsMessage(waitSeconds));
  }
}

/** "Your referral link" re-sent to a member within the hour. → 429 */
export class ReferralEmailTooSoonException extends GroveException {
  override readonly status = HttpStatus.TOO_MANY_REQUESTS;

  constructor() {
    super(MEMBER_PAGE_MESSAGES.referralEmailTooSoon);
  }
}

/** "Your referral link" for a member without a live referral link. → 404 */
export class ReferralEmailNoLinkException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MEMBER_PAGE_MESSAGES.referralEmailNoLink);
  }
}

/** The example of "Your referral link" when no member of the business has a live link. → 404 */
export class ReferralEmailNoExampleException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MEMBER_PAGE_MESSAGES.referralEmailNoExample);
  }
}

/** The member page's QR code for a member without a live referral link. → 404 */
export class MemberLinkMissingException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MEMBER_PAGE_MESSAGES.noLinkYet);
  }
}
