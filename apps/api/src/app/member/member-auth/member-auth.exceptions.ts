import { HttpStatus } from '@nestjs/common';
import { MEMBER_PAGE_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** A magic link that is unknown, already used or expired. → 401 */
export class MagicLinkInvalidException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super(MEMBER_PAGE_MESSAGES.linkExpired);
  }
}

/** A member API call without a live member session (no cookie, expired, revoked). → 401 */
export class MemberSessionMissingException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super(MEMBER_PAGE_MESSAGES.sessionEnded);
  }
}
