import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches } from 'class-validator';
import { MESSAGES } from '@grove/contracts';
import { trimString } from '../../../../platform/common/contract-rule.decorator';

/**
 * Query of `GET /api/mindbody/activation` (issue 22): the Mindbody site number, e.g. -99 (an
 * integer of up to 10 digits, optionally negative). → 400 `MESSAGES.mindbodyInvalidSiteId` otherwise.
 */
export class MindbodySiteQueryDto {
  @ApiProperty({ example: '-99', description: 'Mindbody site ID' })
  @Transform(trimString)
  @IsString({ message: MESSAGES.mindbodyInvalidSiteId })
  @Matches(/^-?\d{1,10}$/, { message: MESSAGES.mindbodyInvalidSiteId })
  siteId!: string;
}
