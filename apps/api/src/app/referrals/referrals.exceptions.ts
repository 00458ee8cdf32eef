import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../common/grove.exception';

/** The referral code is unknown, revoked or expired (SPEC §8 referral failure). → 404 */
export class ReferralLinkNotFoundException extends GroveException {
  constructor() {
    super(MESSAGES.referralFailed);
  }
}

/** A member tried to join through their own link (same email key as the referrer). → 422 */
export class SelfReferralException extends GroveException {
  constructor() {
    super(MESSAGES.selfReferral);
  }
}

/** The friend is already a member (tree) of that business; nothing is queued. → 409 */
export class AlreadyMemberException extends GroveException {
  constructor() {
    super(MESSAGES.alreadyMember);
  }
}

/** The member has no live referral link, so there is no QR code to draw (SPEC §2 text). → 404 */
export class ReferralLinkMissingException extends GroveException {
  constructor() {
    super(MESSAGES.noReferralLink);
  }
}
