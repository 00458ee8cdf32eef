import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';
import {
  MINDBODY_SITE_ID_PATTERN,
  validateMindbodySite,
  type MindbodySiteInput,
} from '@grove/contracts';
import { trimString } from '../../../../platform/common/contract-rule.decorator';
import { ValidatedBy } from '../../../../platform/common/validated-by';

/**
 * Query of `GET /api/mindbody/activation` (issue 22): the Mindbody site number, e.g. -99 (an
 * integer of up to 10 digits, optionally negative: contracts' `validateMindbodySite`, the setup
 * form's rule). → 400 `MESSAGES.mindbodyInvalidSiteId` otherwise.
 */
@ValidatedBy(validateMindbodySite)
export class MindbodySiteQueryDto implements MindbodySiteInput {
  @ApiProperty({
    example: '-99',
    description: 'Mindbody site ID',
    pattern: MINDBODY_SITE_ID_PATTERN.source,
  })
  @Allow()
  @Transform(trimString)
  siteId!: string;
}
