import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { isValidEmail, isValidName, MESSAGES, type JoinReferralRequest } from '@grove/contracts';
import { FollowsRule, trimString } from '../../../platform/common/contract-rule.decorator';

/** Body of `POST /api/referrals/:code/join` (docs/product.md#referral-join Referral join page, docs/product.md#entities Referral sign-up). */
export class JoinReferralDto implements JoinReferralRequest {
  @ApiProperty({ example: 'Jamie Fox', maxLength: 100 })
  @Transform(trimString)
  @FollowsRule(isValidName, MESSAGES.invalidName)
  name!: string;

  @ApiProperty({ example: 'jamie@example.com' })
  @Transform(trimString)
  @FollowsRule(isValidEmail, MESSAGES.invalidEmail)
  email!: string;

  /** Honeypot: hidden on the page, so only bots fill it; a filled one is answered as success and dropped. */
  @ApiPropertyOptional({ description: 'Leave empty (hidden honeypot field)' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  website?: string;
}
