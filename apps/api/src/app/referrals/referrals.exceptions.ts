import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../common/grove.exception';

/** The referral code is unknown, revoked or expired (docs/product.md#errors referral failure). → 404 */
export class ReferralLinkNotFoundException extends GroveException {
  constructor() {
    super(MESSAGES.referralFailed);
  }
}

/** The member has no live referral link, so there is no QR code to draw (docs/product.md#referral-links text). → 404 */
export class ReferralLinkMissingException extends GroveException {
  constructor() {
    super(MESSAGES.noReferralLink);
  }
}
