import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
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

/** The member is managed by Mindbody and cannot be changed by hand (docs/product.md#roles). → 409 */
export class ManagedMemberLockedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.managedMemberLocked);
  }
}
