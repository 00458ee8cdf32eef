import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  isValidAmount,
  isValidReferralDiscount,
  MESSAGES,
  type MindbodyDiscountsRequest,
} from '@grove/contracts';
import { FollowsRule, IsOmittable } from '../../../../platform/common/contract-rule.decorator';

/**
 * Body of `PUT /api/mindbody/discounts` (docs/product.md#validation-mindbody): dollars as typed or JSON numbers.
 * `discountOnReferral` ≥ 0.01 required; `discountForReferee` ≥ 0 optional (default 0; `null` is
 * not a value). Anything else → 400 'Please provide valid values.' (docs/product.md#errors).
 */
export class MindbodyDiscountsDto implements MindbodyDiscountsRequest {
  @ApiProperty({
    example: '10.00',
    type: String,
    description: 'Dollars off a member’s bill per referred friend (≥ 0.01)',
  })
  @FollowsRule(isValidReferralDiscount, MESSAGES.mindbodyInvalidDiscounts, true)
  discountOnReferral!: string;

  @ApiPropertyOptional({
    example: '5',
    type: String,
    description: 'Dollars off the referred friend’s bill (≥ 0, default 0)',
  })
  @IsOmittable()
  @FollowsRule(isValidAmount, MESSAGES.mindbodyInvalidDiscounts, true)
  discountForReferee?: string;
}
