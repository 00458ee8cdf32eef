import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsOptional, IsString, Matches } from 'class-validator';
import {
  AMOUNT_MAX_CENTS,
  MESSAGES,
  validateMindbodyDiscounts,
  validateStripeMembersKey,
  validateStripeMembersWebhook,
  type MindbodyDiscountsInput,
  type StripeMembersKeyInput,
  type StripeMembersWebhookInput,
} from '@grove/contracts';
import { ValidatedBy } from '../../../../platform/common/validated-by';

/**
 * Body of `PUT /api/stripe-members/credentials` (issue 32): the gym's restricted key
 * (`rk_live_…`/`rk_test_…`, checked by contracts' `validateStripeMembersKey`). Anything else → 400
 * `MESSAGES.stripeInvalidKey`.
 */
@ValidatedBy(validateStripeMembersKey)
export class StripeMembersKeyDto implements StripeMembersKeyInput {
  @ApiProperty({
    example: 'rk_test_51Abc',
    maxLength: 255,
    description:
      'A restricted key with Customers Read, Subscriptions Write, Coupons Write, Invoices Read',
  })
  @Allow()
  apiKey!: string;
}

/**
 * Body of `PUT /api/stripe-members/discounts`, integer cents, the Mindbody wizard's rule
 * (`validateMindbodyDiscounts`, docs/product.md#validation-mindbody): `discountOnReferralCents` ≥ 1
 * required, `discountForRefereeCents` ≥ 0 optional (default 0). Anything else → 400 'Please provide
 * valid values.'
 */
@ValidatedBy(validateMindbodyDiscounts)
export class StripeMembersDiscountsDto implements MindbodyDiscountsInput {
  @ApiProperty({ example: 1000, type: 'integer', minimum: 1, maximum: AMOUNT_MAX_CENTS })
  @Allow()
  discountOnReferralCents!: number;

  @ApiPropertyOptional({ example: 500, type: 'integer', minimum: 0, maximum: AMOUNT_MAX_CENTS })
  @Allow()
  discountForRefereeCents?: number;
}

/**
 * Body of `POST /api/stripe-members/sync` (issue 25's rule): `confirm`, the `fingerprint` of the
 * preview the owner confirmed (32 lowercase hex digits). Anything else → 400
 * `MESSAGES.mindbodySyncConfirmRequired`; a missing one is refused by the service after its 409s.
 */
export class StripeMembersSyncDto {
  @ApiProperty({ example: '3f1c0e9a4b2d8c7e6f5a4b3c2d1e0f9a' })
  @IsOptional()
  @IsString({ message: MESSAGES.mindbodySyncConfirmRequired })
  @Matches(/^[0-9a-f]{32}$/, { message: MESSAGES.mindbodySyncConfirmRequired })
  confirm?: string;

  /**
   * true: later bills the gym's webhooks change (a friend's first paid invoice, a subscription
   * ended) are written without another review while these discounts stay
   * (docs/decisions/stripe-member-webhooks.md); false or absent: they wait for the owner.
   */
  @ApiPropertyOptional({ example: false })
  @IsOptional()
  @IsBoolean({ message: 'automatic must be true or false' })
  automatic?: boolean;
}

/**
 * Body of `PUT /api/stripe-members/webhook`: the signing secret (`whsec_…`) of the endpoint the
 * owner added in their Stripe Dashboard (`validateStripeMembersWebhook`). Anything else → 400
 * `MESSAGES.stripeInvalidWebhookSecret`.
 */
@ValidatedBy(validateStripeMembersWebhook)
export class StripeMembersWebhookDto implements StripeMembersWebhookInput {
  @ApiProperty({ example: 'whsec_1a2b3c', maxLength: 255 })
  @Allow()
  signingSecret!: string;
}
