import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';
import {
  AMOUNT_MAX_CENTS,
  NAME_MAX_LENGTH,
  validateMemberChanges,
  type MemberInput,
} from '@grove/contracts';
import { trimString } from '../../../platform/common/contract-rule.decorator';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * Body of `PATCH /api/members/:id`: any of the member fields, same rules and messages
 * (contracts' `validateMemberChanges`, docs/product.md#validation); amounts in integer cents. A
 * field sent as `null` fails its rule (400 with the field's message).
 */
@ValidatedBy(validateMemberChanges)
export class UpdateMemberDto implements Partial<MemberInput> {
  @ApiPropertyOptional({ example: 'Alex Smith', maxLength: NAME_MAX_LENGTH })
  @Allow()
  @Transform(trimString)
  memberName?: string;

  @ApiPropertyOptional({ example: 'alex@example.com' })
  @Allow()
  @Transform(trimString)
  memberEmail?: string;

  @ApiPropertyOptional({
    example: 8900,
    type: 'integer',
    minimum: 0,
    maximum: AMOUNT_MAX_CENTS,
    description: 'Monthly membership price, integer cents',
  })
  @Allow()
  membershipPriceCents?: number;

  @ApiPropertyOptional({
    example: 1000,
    type: 'integer',
    minimum: 0,
    maximum: AMOUNT_MAX_CENTS,
    description: 'Discount per referral (per branch), integer cents',
  })
  @Allow()
  discountCents?: number;
}
