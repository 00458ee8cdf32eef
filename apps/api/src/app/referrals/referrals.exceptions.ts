import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../common/grove.exception';

/** The referral code is unknown, revoked or expired (SPEC §8 referral failure). → 404 */
export class ReferralLinkNotFoundException extends GroveException {
  constructor() {
    super(MESSAGES.referralFailed);
  }
}

/** The member has no live referral link, so there is no QR code to draw (SPEC §2 text). → 404 */
export class ReferralLinkMissingException extends GroveException {
  constructor() {
    super(MESSAGES.noReferralLink);
  }
}
