import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  AMOUNT_MAX_CENTS,
  validateMindbodyDiscounts,
  type MindbodyDiscountsInput,
} from '@grove/contracts';
import { ValidatedBy } from '../../../../platform/common/validated-by';

/**
 * Body of `PUT /api/mindbody/discounts` (docs/product.md#validation-mindbody), integer cents,
 * checked by contracts' `validateMindbodyDiscounts`: `discountOnReferralCents` ≥ 1 required;
 * `discountForRefereeCents` ≥ 0 optional (default 0; `null` is not a value). Anything else → 400
 * 'Please provide valid values.' (docs/product.md#errors).
 */
@ValidatedBy(validateMindbodyDiscounts)
export class MindbodyDiscountsDto implements MindbodyDiscountsInput {
  @ApiProperty({
    example: 1000,
    type: 'integer',
    minimum: 1,
    maximum: AMOUNT_MAX_CENTS,
    description: 'Cents off a member’s bill per referred friend (≥ 1)',
  })
  @Allow()
  discountOnReferralCents!: number;

  @ApiPropertyOptional({
    example: 500,
    type: 'integer',
    minimum: 0,
    maximum: AMOUNT_MAX_CENTS,
    description: 'Cents off the referred friend’s bill (≥ 0, default 0)',
  })
  @Allow()
  discountForRefereeCents?: number;
}
