import { Global, Module } from '@nestjs/common';
import { BillingGate } from './billing-gate';
import { BusinessBillingRepository } from './business-billing.repository';

/**
 * Where a business stands with Grove's own bill (docs/product.md#billing): the pause rule every
 * area asks before approvals, branches, imports and bill writes (`BillingGate`), and the table it
 * reads. Stripe, Checkout and webhooks are the owner area's `owner/billing`.
 */
@Global()
@Module({
  providers: [BusinessBillingRepository, BillingGate],
  exports: [BusinessBillingRepository, BillingGate],
})
export class BillingModule {}
