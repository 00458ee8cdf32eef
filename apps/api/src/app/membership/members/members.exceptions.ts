import { HttpStatus } from '@nestjs/common';
import { MESSAGES, REFERRED_BY_MESSAGES, type IntegrationName } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** No member with this id in the session's business (other businesses' members look absent). → 404 */
export class MemberNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MESSAGES.memberNotFound);
  }
}

/** The member to detach is not a branch of that tree. → 404 */
export class NotABranchException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MESSAGES.notABranch);
  }
}

/** Another member of the business has the same email key (docs/product.md#entities: `jo.e@x.com` = `joe@x.com`). → 409 */
export class DuplicateMemberException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.duplicateMember);
  }
}

/**
 * The member is managed by Mindbody, or billed on the business's Stripe (issue 32: its price is
 * the subscription's and its discount the confirmed sync's), and cannot be changed by hand
 * (docs/product.md#roles). → 409
 */
export class ManagedMemberLockedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor(integration: IntegrationName = 'Mindbody') {
    super(integration === 'Stripe' ? MESSAGES.stripeMemberLocked : MESSAGES.managedMemberLocked);
  }
}

/** Matching a referral to the member themselves (issue 33 item 4). → 400 */
export class OwnReferrerException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(REFERRED_BY_MESSAGES.ownReferrer);
  }
}

/** Matching a referral for a member who is already someone's branch (issue 33 item 4). → 409 */
export class AlreadyABranchException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(REFERRED_BY_MESSAGES.alreadyBranch);
  }
}

/** Matching that would make a referrer the branch of their own branch (issue 33 item 4). → 409 */
export class ReferralLoopException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(REFERRED_BY_MESSAGES.referralLoop);
  }
}
