import { HttpStatus, Injectable } from '@nestjs/common';
import { GROVE_PLAN, MESSAGES } from '@grove/contracts';
import { GroveException } from '../common/grove.exception';
import { AppConfig } from '../config/app-config';
import type { BusinessScope } from '../database/business-scope';
import { billingStanding, type BillingStanding } from './billing-standing';
import { BusinessBillingRepository, type BusinessBilling } from './business-billing.repository';

/**
 * The business's grace period is over and it has not paid (docs/product.md#billing). → 402
 * 'Grove is paused until your subscription is paid: …'. Nothing was changed.
 */
export class BillingPausedException extends GroveException {
  override readonly status = HttpStatus.PAYMENT_REQUIRED;

  constructor() {
    super(MESSAGES.billingPaused);
  }
}

/**
 * Whether a business may do what its plan pays for (docs/product.md#billing): approving
 * prospective members, adding branches, imports and bill writes pause once a business owes past
 * its grace period; everything else (reading, exports, friends joining) never pauses. With
 * GROVE_BILLING=off nothing pauses.
 */
@Injectable()
export class BillingGate {
  constructor(
    private readonly config: AppConfig,
    private readonly billing: BusinessBillingRepository,
  ) {}

  /** The business's bill and where it stands now (one query). */
  async standing(
    scope: BusinessScope,
  ): Promise<{ billing: BusinessBilling; standing: BillingStanding }> {
    const billing = await this.billing.facts(scope, GROVE_PLAN.freeMembers);
    const standing = billingStanding(
      billing,
      new Date(),
      this.config.billing.graceSeconds,
      GROVE_PLAN.freeMembers,
    );
    return { billing, standing };
  }

  /**
   * Call before work that pauses when unpaid.
   * @throws BillingPausedException 402 when billing is on and the business is paused
   */
  async assertOpen(scope: BusinessScope): Promise<void> {
    if (!this.config.billing.enabled) return;
    if ((await this.standing(scope)).standing.paused) throw new BillingPausedException();
  }
}
