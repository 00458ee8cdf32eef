import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { isValidAmount, isValidEmail, isValidName, MESSAGES } from '@grove/contracts';
import {
  FollowsRule,
  IsOmittable,
  trimString,
} from '../../../platform/common/contract-rule.decorator';

/**
 * Body of `PATCH /api/members/:id`: any of the member fields, same rules and messages (docs/product.md#validation).
 * A field sent as `null` fails its rule (400 with the field's message).
 */
export class UpdateMemberDto {
  @ApiPropertyOptional({ example: 'Alex Smith' })
  @IsOmittable()
  @Transform(trimString)
  @FollowsRule(isValidName, MESSAGES.invalidName)
  memberName?: string;

  @ApiPropertyOptional({ example: 'alex@example.com' })
  @IsOmittable()
  @Transform(trimString)
  @FollowsRule(isValidEmail, MESSAGES.invalidEmail)
  memberEmail?: string;

  @ApiPropertyOptional({ example: '89.00', type: String })
  @IsOmittable()
  @FollowsRule(isValidAmount, MESSAGES.invalidAmount, true)
  membershipPrice?: string | number;

  @ApiPropertyOptional({ example: '10', type: String })
  @IsOmittable()
  @FollowsRule(isValidAmount, MESSAGES.invalidDiscount, true)
  discount?: string | number;
}
