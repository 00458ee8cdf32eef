import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** The referral code is unknown, revoked or expired (docs/product.md#errors referral failure). → 404 */
export class ReferralLinkNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MESSAGES.referralFailed);
  }
}

/** The member has no live referral link, so there is no QR code to draw (docs/product.md#referral-links text). → 404 */
export class ReferralLinkMissingException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MESSAGES.noReferralLink);
  }
}
