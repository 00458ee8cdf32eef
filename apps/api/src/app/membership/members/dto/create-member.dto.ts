import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import {
  isValidAmount,
  isValidEmail,
  isValidName,
  MESSAGES,
  type CreateMemberRequest,
} from '@grove/contracts';
import { FollowsRule, trimString } from '../../../platform/common/contract-rule.decorator';

/**
 * Body of `POST /api/members/:id/branches` (docs/product.md#entities "New member payload", docs/product.md#validation rules and messages):
 * all four fields required. Amounts are dollars as typed ("49", "49.5", "49.99") or JSON numbers.
 */
export class MemberFieldsDto {
  @ApiProperty({
    example: 'Alex Smith',
    maxLength: 100,
    description: 'Letters and spaces; trimmed',
  })
  @Transform(trimString)
  @FollowsRule(isValidName, MESSAGES.invalidName)
  memberName!: string;

  @ApiProperty({ example: 'alex@example.com' })
  @Transform(trimString)
  @FollowsRule(isValidEmail, MESSAGES.invalidEmail)
  memberEmail!: string;

  @ApiProperty({ example: '89.00', description: 'Dollars, up to two decimals', type: String })
  @FollowsRule(isValidAmount, MESSAGES.invalidAmount, true)
  membershipPrice!: string | number;

  @ApiProperty({
    example: '10',
    description: 'Discount per referral in dollars, up to two decimals',
    type: String,
  })
  @FollowsRule(isValidAmount, MESSAGES.invalidDiscount, true)
  discount!: string | number;
}

/** Body of `POST /api/members`: the member fields plus, optionally, the tree it is a branch of. */
export class CreateMemberDto
  extends MemberFieldsDto
  implements Omit<CreateMemberRequest, 'membershipPrice' | 'discount'>
{
  @ApiPropertyOptional({ description: 'Attach the new tree as a branch of this member (id)' })
  @IsOptional()
  @IsString({ message: MESSAGES.memberNotFound })
  referringMemberId?: string;
}
