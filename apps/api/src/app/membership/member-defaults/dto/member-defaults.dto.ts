import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  MEMBER_DEFAULT_MAX_CENTS,
  validateMemberDefaults,
  type MemberDefaults,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * `PUT /api/settings/member-defaults` body (docs/product.md#member-defaults): both fields, each
 * integer cents from 0 to 100,000,000 ($1,000,000) or null (no default). A missing field, text,
 * a fraction of a cent or a negative amount → 400 with the add-member form's message
 * (docs/product.md#validation: 'Not a valid discount price', 'Not a valid amount'), checked by
 * contracts' `validateMemberDefaults`.
 */
@ValidatedBy(validateMemberDefaults)
export class MemberDefaultsDto implements MemberDefaults {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1500,
    minimum: 0,
    maximum: MEMBER_DEFAULT_MAX_CENTS,
    description: 'Default discount per referral, cents (null: none)',
  })
  @Allow()
  discountCents!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 8900,
    minimum: 0,
    maximum: MEMBER_DEFAULT_MAX_CENTS,
    description: 'Default membership price, cents (null: none)',
  })
  @Allow()
  membershipPriceCents!: number | null;
}
