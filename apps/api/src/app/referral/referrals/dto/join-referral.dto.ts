import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  JOIN_VIAS,
  joinChannel,
  NAME_MAX_LENGTH,
  validateJoinReferral,
  type JoinVia,
  type JoinReferralRequest,
} from '@grove/contracts';
import { trimString } from '../../../platform/common/contract-rule.decorator';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * Body of `POST /api/referrals/:code/join` (docs/product.md#referral-join Referral join page,
 * docs/product.md#entities Referral sign-up), checked by contracts' `validateJoinReferral` ('Not a
 * valid name', 'Not a valid email address').
 */
@ValidatedBy(validateJoinReferral)
export class JoinReferralDto implements JoinReferralRequest {
  @ApiProperty({ example: 'Jamie Fox', maxLength: NAME_MAX_LENGTH })
  @Allow()
  @Transform(trimString)
  name!: string;

  @ApiProperty({ example: 'jamie@example.com' })
  @Allow()
  @Transform(trimString)
  email!: string;

  /** Honeypot: hidden on the page, so only bots fill it; a filled one is answered as success and dropped. */
  @ApiPropertyOptional({ description: 'Leave empty (hidden honeypot field)' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  website?: string;

  /**
   * The channel that brought the friend (the join page's hidden `via`, from the link's `?via=`;
   * docs/product.md#referral-join). Absent, unknown or not a string → `direct`: never a 400, the
   * join goes through and the value is not kept.
   */
  @ApiPropertyOptional({
    enum: JOIN_VIAS,
    description: 'Channel that brought the friend; anything else counts as direct',
  })
  @Transform(({ value }: { value: unknown }) => joinChannel(value))
  @IsOptional()
  @IsIn(JOIN_VIAS)
  via?: JoinVia;
}
