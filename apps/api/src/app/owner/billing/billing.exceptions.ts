import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** Stripe is not configured (development without the stand-in) or did not answer. → 503 */
export class BillingUnavailableException extends GroveException {
  override readonly status = HttpStatus.SERVICE_UNAVAILABLE;

  constructor() {
    super(MESSAGES.billingUnavailable);
  }
}

/** 'Add a card' while a subscription already pays. → 409 */
export class BillingAlreadyActiveException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.billingAlreadyActive);
  }
}

/** 'Manage billing' before the business has a Stripe customer. → 409 */
export class BillingNoCustomerException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MESSAGES.billingNoCustomer);
  }
}

/** A Stripe webhook whose `Stripe-Signature` does not verify (forged, stale, or no raw body). → 400 */
export class StripeSignatureException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super('Webhook signature verification failed');
  }
}
