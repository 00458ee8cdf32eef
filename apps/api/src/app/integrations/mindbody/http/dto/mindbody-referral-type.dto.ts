import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  MINDBODY_REFERRAL_TYPE_MAX_LENGTH,
  validateMindbodyReferralType,
  type MindbodyReferralTypeInput,
} from '@grove/contracts';
import { ValidatedBy } from '../../../../platform/common/validated-by';

/**
 * Body of `PUT /api/mindbody/referral-type` (issue 33 item 4): one of the site's referral types
 * (`GET /client/clientreferraltypes`), sent as AddClient's `ReferredBy` for the friends Grove adds
 * to Mindbody, or null for none. Checked by contracts' `validateMindbodyReferralType`, then against
 * the site's list (400 `MESSAGES.mindbodyReferralTypeUnknown`).
 */
@ValidatedBy(validateMindbodyReferralType)
export class MindbodyReferralTypeDto implements MindbodyReferralTypeInput {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Friend',
    maxLength: MINDBODY_REFERRAL_TYPE_MAX_LENGTH,
    description: "One of the site's referral types, or null: no ReferredBy is sent",
  })
  @Allow()
  referralType!: string | null;
}

/** The site's referral types and the one the owner picked (null: none). */
@ApiSchema({ name: 'MindbodyReferralTypes' })
export class MindbodyReferralTypesDto {
  @ApiProperty({
    type: [String],
    example: ['Friend', 'Instagram', 'Walk-in'],
    description: "The site's referral types, as Mindbody lists them",
  })
  referralTypes!: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The referral type Grove sends as ReferredBy when it adds a friend; null: none',
  })
  selected!: string | null;
}
