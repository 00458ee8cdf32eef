import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { isValidAmount, isValidEmail, isValidName, MESSAGES } from '@grove/contracts';
import { FollowsRule, trimString } from '../../common/contract-rule.decorator';

/** Body of `PATCH /api/members/:id`: any of the member fields, same rules and messages (SPEC §5). */
export class UpdateMemberDto {
  @ApiPropertyOptional({ example: 'Alex Smith' })
  @IsOptional()
  @Transform(trimString)
  @FollowsRule(isValidName, MESSAGES.invalidName)
  memberName?: string;

  @ApiPropertyOptional({ example: 'alex@example.com' })
  @IsOptional()
  @Transform(trimString)
  @FollowsRule(isValidEmail, MESSAGES.invalidEmail)
  memberEmail?: string;

  @ApiPropertyOptional({ example: '89.00', type: String })
  @IsOptional()
  @FollowsRule(isValidAmount, MESSAGES.invalidAmount, true)
  membershipPrice?: string | number;

  @ApiPropertyOptional({ example: '10', type: String })
  @IsOptional()
  @FollowsRule(isValidAmount, MESSAGES.invalidDiscount, true)
  discount?: string | number;
}
