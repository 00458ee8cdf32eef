import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** Mindbody refused the staff login (docs/product.md#errors 'Invalid credentials provided'); the stage stays 1. → 400 */
export class MindbodyInvalidCredentialsException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.mindbodyInvalidCredentials);
  }
}

/**
 * The site has not activated Grove's developer account yet (issue 22: Mindbody lists it among no
 * sites Grove may read), told apart from wrong credentials. → 400 `MESSAGES.mindbodySiteNotActivated`
 */
export class MindbodySiteNotActivatedException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.mindbodySiteNotActivated);
  }
}

/** Mindbody refused the site ID (no such site). → 400 `MESSAGES.mindbodyUnknownSite` */
export class MindbodyUnknownSiteException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.mindbodyUnknownSite);
  }
}

/**
 * Another business holds this Mindbody site (issue 31: a site belongs to one business, so no
 * second business receives its webhooks or writes its bills). Nothing is stored; the holder's
 * owners are told by email. → 409 `MESSAGES.mindbodySiteClaimed`
 */
export class MindbodySiteClaimedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.mindbodySiteClaimed);
  }
}

/** The action needs a later stage of the setup (docs/product.md#mindbody-stages stage table), e.g. import before credentials. → 409 */
export class MindbodyWrongStageException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor(needed: string) {
    super(`Finish the earlier Mindbody setup steps first (${needed})`);
  }
}

/** Mindbody could not be reached or failed (docs/product.md#errors 'Something went wrong'). → 502 */
export class MindbodyFailedException extends GroveException {
  override readonly status = HttpStatus.BAD_GATEWAY;

  constructor() {
    super(MESSAGES.mindbodySomethingWentWrong);
  }
}

/** A webhook whose X-Mindbody-Signature matches no subscription key. → 401 */
export class MindbodyWebhookSignatureException extends GroveException {
  override readonly status = HttpStatus.UNAUTHORIZED;

  constructor() {
    super('Invalid webhook signature');
  }
}

/**
 * A webhook delivery whose `eventData.siteId` holds a control character: no site has one, and the
 * database refuses a NUL. → 400 'Invalid webhook delivery'
 */
export class MindbodyWebhookInvalidException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super('Invalid webhook delivery');
  }
}

/**
 * A sync asked for without the fingerprint of the preview the owner confirmed (issue 25: a sync
 * writes Mindbody autopays only after the owner has seen which). → 400
 * `MESSAGES.mindbodySyncConfirmRequired`
 */
export class MindbodySyncConfirmRequiredException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.mindbodySyncConfirmRequired);
  }
}

/**
 * The bills a sync would change are no longer those of the confirmed preview (a webhook, a
 * discount or a branch changed them meanwhile): the wizard shows the preview again. → 409
 * `MESSAGES.mindbodySyncPreviewStale`
 */
export class MindbodySyncPreviewStaleException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.mindbodySyncPreviewStale);
  }
}

/**
 * 'Add to Mindbody' (issue 33 item 4) at a business whose Mindbody is not connected and imported
 * (stage 2 or more). The approval it came with rolls back. → 409 `MESSAGES.mindbodyAddNotConnected`
 */
export class MindbodyAddNotConnectedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.mindbodyAddNotConnected);
  }
}

/**
 * 'Try again' on a member whose adding to Mindbody did not fail (never asked, still pending,
 * or done). → 409 `MESSAGES.mindbodyAddNotFailed`
 */
export class MindbodyAddNotFailedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.mindbodyAddNotFailed);
  }
}

/** A referral type the site does not list (`GET /client/clientreferraltypes`). → 400 `MESSAGES.mindbodyReferralTypeUnknown` */
export class MindbodyReferralTypeUnknownException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.mindbodyReferralTypeUnknown);
  }
}
