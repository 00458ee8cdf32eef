import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** Stripe answered 401 to the gym's key (wrong, incomplete or revoked). → 400 `MESSAGES.stripeKeyRefused` */
export class StripeKeyRefusedException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.stripeKeyRefused);
  }
}

/**
 * Stripe answered 403 to the gym's restricted key: it lacks a permission Grove needs
 * (docs/decisions/stripe-member-billing.md). → 400 `MESSAGES.stripeKeyMissingPermissions`
 * (Stripe's own message, naming the permission, is kept in `stripeMessage` for the log).
 */
export class StripeKeyMissingPermissionsException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor(readonly stripeMessage = '') {
    super(MESSAGES.stripeKeyMissingPermissions);
  }
}

/** Another business imported a subscription of this Stripe account (a Stripe account belongs to one business). → 409 */
export class StripeAccountClaimedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.stripeAccountClaimed);
  }
}

/** A route that needs the gym's Stripe account before it is connected. → 409 `MESSAGES.stripeNotConnected` */
export class StripeNotConnectedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.stripeNotConnected);
  }
}

/** A sync (or its preview) before the referral discounts are saved. → 409 `MESSAGES.stripeDiscountsFirst` */
export class StripeDiscountsFirstException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.stripeDiscountsFirst);
  }
}

/**
 * Stripe did not answer, or refused a request for another reason (`stripeCode`, e.g.
 * `invoice_upcoming_none`). → 502 `MESSAGES.stripeUnavailable`
 */
export class StripeAccountUnavailableException extends GroveException {
  override readonly status = HttpStatus.BAD_GATEWAY;

  /**
   * @param stripeCode Stripe's error `code`, when it answered with one
   * @param refusal Stripe's message when it refused the request (its 400: retrying changes nothing)
   */
  constructor(
    readonly stripeCode?: string,
    readonly refusal?: string,
  ) {
    super(MESSAGES.stripeUnavailable);
  }
}

/** A sync without the preview's fingerprint (issue 25's rule). → 400 `MESSAGES.mindbodySyncConfirmRequired` */
export class StripeSyncConfirmRequiredException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.mindbodySyncConfirmRequired);
  }
}

/** The bills to change are no longer the reviewed ones. → 409 `MESSAGES.mindbodySyncPreviewStale` */
export class StripeSyncPreviewStaleException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.mindbodySyncPreviewStale);
  }
}

/** The member has no running Stripe subscription Grove imported (or is not the business's). → 404 */
export class StripeNoSubscriptionException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MESSAGES.stripeNoSubscription);
  }
}

/**
 * A delivery to a gym's Stripe webhook endpoint that does not verify: an unknown endpoint token, no
 * signing secret saved, no raw body, or a `Stripe-Signature` that is forged, stale or of another
 * secret. → 400 (Stripe's documented answer to a failed verification)
 */
export class StripeMemberWebhookSignatureException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super('Webhook signature verification failed');
  }
}
