import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** No prospective member with this id in the session's business (or it was already approved). → 404 */
export class ProspectNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MESSAGES.prospectNotFound);
  }
}

/** No open flagged join with this id in the session's business (or it was already dismissed). → 404 */
export class JoinFlagNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MESSAGES.joinFlagNotFound);
  }
}

/**
 * The prospective member is managed by an integration (Mindbody) and cannot be approved or removed
 * by hand (docs/product.md#screens 'Managed by {integration}', docs/product.md#roles). → 409
 */
export class ProspectManagedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.prospectManaged);
  }
}
