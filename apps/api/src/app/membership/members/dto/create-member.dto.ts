import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsOptional, IsString } from 'class-validator';
import {
  AMOUNT_MAX_CENTS,
  MESSAGES,
  NAME_MAX_LENGTH,
  REFERRED_BY_NOTE_MAX_LENGTH,
  validateMemberInput,
  validateReferredBy,
  type MemberInput,
  type ReferredByInput,
} from '@grove/contracts';
import { trimString } from '../../../platform/common/contract-rule.decorator';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * Body of `POST /api/members/:id/branches` and `POST /api/prospects/:id/approve`
 * (docs/product.md#entities "New member payload"): all four fields required, checked by
 * contracts' `validateMemberInput` (docs/product.md#validation rules and messages: 'Not a valid
 * name', 'Not a valid email address', 'Not a valid amount', 'Not a valid discount price'). Amounts
 * are integer cents from 0 to 100,000,000.
 */
@ValidatedBy(validateMemberInput)
export class MemberFieldsDto implements MemberInput {
  @ApiProperty({
    example: 'Alex Smith',
    maxLength: NAME_MAX_LENGTH,
    description: 'Letters of any script, spaces, apostrophes, hyphens and periods; trimmed',
  })
  @Allow()
  @Transform(trimString)
  memberName!: string;

  @ApiProperty({ example: 'alex@example.com' })
  @Allow()
  @Transform(trimString)
  memberEmail!: string;

  @ApiProperty({
    example: 8900,
    type: 'integer',
    minimum: 0,
    maximum: AMOUNT_MAX_CENTS,
    description: 'Monthly membership price, integer cents',
  })
  @Allow()
  membershipPriceCents!: number;

  @ApiProperty({
    example: 1000,
    type: 'integer',
    minimum: 0,
    maximum: AMOUNT_MAX_CENTS,
    description: 'Discount per referral (per branch), integer cents',
  })
  @Allow()
  discountCents!: number;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'True: the owner confirms adding an email whose member was erased on request (docs/product.md#data-rights); without it such an email answers 409',
  })
  @IsOptional()
  @IsBoolean({ message: 'confirmErased must be true or false' })
  confirmErased?: boolean;
}

/**
 * Body of `POST /api/members`: the member fields plus, optionally, who referred them: the tree it
 * is a branch of (`referringMemberId`), or a name that matches no member (`referredByNote`, issue
 * 33 item 4: contracts' `validateReferredBy`), never both.
 */
@ValidatedBy(validateReferredBy)
export class CreateMemberDto extends MemberFieldsDto implements ReferredByInput {
  @ApiPropertyOptional({ description: 'Attach the new tree as a branch of this member (id)' })
  @IsOptional()
  @IsString({ message: MESSAGES.memberNotFound })
  referringMemberId?: string;

  @ApiPropertyOptional({
    example: 'Jenny (spin class)',
    maxLength: REFERRED_BY_NOTE_MAX_LENGTH,
    description:
      'Who referred them, as typed, when it matches no member: the member waits in Referrals to match; trimmed, empty = none',
  })
  @Allow()
  @Transform(trimString)
  referredByNote?: string;
}
