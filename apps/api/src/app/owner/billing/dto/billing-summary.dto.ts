import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { BillingState } from '@grove/contracts';

/** One of Grove's invoices to the business, as Stripe lists it. */
@ApiSchema({ name: 'BillingInvoice' })
export class BillingInvoiceDto {
  @ApiProperty({ description: "Stripe's invoice id (`in_…`)" })
  id!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Stripe's invoice number, once finalized",
  })
  number!: string | null;

  @ApiProperty({ description: 'When it was created (ISO 8601)' })
  createdAt!: string;

  @ApiProperty({ description: 'Amount due, in cents of `currency`' })
  amountCents!: number;

  @ApiProperty({ description: 'ISO 4217 code, upper case', example: 'USD' })
  currency!: string;

  @ApiProperty({ description: "Stripe's invoice status: draft, open, paid, uncollectible, void" })
  status!: string;

  @ApiProperty({ type: String, nullable: true, description: "Stripe's hosted invoice page" })
  url!: string | null;
}

/**
 * `GET /api/billing` (signed in): where the business stands with Grove's own bill
 * (docs/product.md#billing), what Account Settings → Billing and the dashboard's banner show.
 */
@ApiSchema({ name: 'BillingSummary' })
export class BillingSummaryDto {
  @ApiProperty({
    description:
      'False when the operator runs Grove without billing (GROVE_BILLING=off): show nothing',
  })
  enabled!: boolean;

  @ApiProperty({ enum: ['free', 'card-needed', 'active', 'past-due'], enumName: 'BillingState' })
  state!: BillingState;

  @ApiProperty({
    description:
      'Members who arrived through Grove (approved friends who joined through a referral link)',
  })
  membersThroughGrove!: number;

  @ApiProperty({ description: 'Members free of charge before the plan starts (2)' })
  freeMembers!: number;

  @ApiProperty({ description: "The plan's monthly price, in cents of `currency`" })
  priceCents!: number;

  @ApiProperty({ description: 'ISO 4217 code, upper case', example: 'USD' })
  currency!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'When approvals, imports and bill writes pause unless paid (ISO 8601); null when nothing is owed',
  })
  graceEndsAt!: string | null;

  @ApiProperty({
    description: 'The grace period is over: approvals, imports and bill writes answer 402',
  })
  paused!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Next charge (end of the paid period, ISO 8601)',
  })
  nextChargeAt!: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Next charge, in cents of `currency`' })
  nextChargeCents!: number | null;

  @ApiProperty({
    description: 'Cancelled in the portal: the subscription ends at `nextChargeAt` instead',
  })
  cancelAtPeriodEnd!: boolean;

  @ApiProperty({
    description: "The business has a Stripe customer: 'Manage billing' opens the portal",
  })
  canManage!: boolean;

  @ApiProperty({
    type: [BillingInvoiceDto],
    nullable: true,
    description: 'The newest invoices (at most 12); null when Stripe could not be asked just now',
  })
  invoices!: BillingInvoiceDto[] | null;
}

/** `POST /api/billing/checkout` and `/portal`: the Stripe page to send the owner to. */
@ApiSchema({ name: 'BillingRedirect' })
export class BillingRedirectDto {
  @ApiProperty({ description: "Stripe's hosted Checkout or Customer Portal page (https)" })
  url!: string;
}

/** `POST /api/billing/stripe-webhook`: what Stripe is answered (any 2xx means received). */
@ApiSchema({ name: 'StripeWebhookReceipt' })
export class StripeWebhookReceiptDto {
  @ApiProperty({ enum: [true] })
  received!: true;
}
