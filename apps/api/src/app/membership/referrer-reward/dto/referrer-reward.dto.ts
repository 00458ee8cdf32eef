import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  AMOUNT_MAX_CENTS,
  FREE_PERIOD_UNITS,
  REFERRER_GIFT_MAX_LENGTH,
  REFERRER_REWARD_KINDS,
  REWARDED_BRANCHES_MAX,
  validateReferrerReward,
  type FreePeriodUnit,
  type ReferrerReward,
  type ReferrerRewardKind,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * `PUT /api/settings/referrer-reward` body, and the reply of `GET` and `PUT`
 * (docs/product.md#referrer-reward): the reward a referrer gets per counting branch, and the cap
 * on the ongoing discount. Checked by contracts' `validateReferrerReward` (a known `kind`;
 * `creditCents` 1–100,000,000 cents for `credit`; `freeCount` 1–52 weeks or 1–12 months with
 * `freeUnit` for `free`; `giftText` 1–100 characters of plain text for `gift`; `capPercent` 1–100;
 * `yearlyCapCents` null or 1–100,000,000 cents; `maxBranchesPerYear` null or 1–1,000): else 400 with its message and `fieldErrors`,
 * nothing saved. The fields of another kind are ignored in a body and null in a reply.
 */
@ApiSchema({ name: 'ReferrerReward' })
@ValidatedBy(validateReferrerReward)
export class ReferrerRewardDto implements ReferrerReward {
  @ApiProperty({ enum: REFERRER_REWARD_KINDS, example: 'discount' })
  @Allow()
  kind!: ReferrerRewardKind;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: 1,
    maximum: AMOUNT_MAX_CENTS,
    example: 2500,
    description: 'One-off credit per counting branch, integer cents (kind credit)',
  })
  @Allow()
  creditCents!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: 1,
    maximum: 52,
    example: 2,
    description: 'Free weeks (1–52) or months (1–12) per counting branch (kind free)',
  })
  @Allow()
  freeCount!: number | null;

  @ApiProperty({
    enum: FREE_PERIOD_UNITS,
    nullable: true,
    required: false,
    example: 'week',
    description: 'The unit of freeCount (kind free)',
  })
  @Allow()
  freeUnit!: FreePeriodUnit | null;

  @ApiProperty({
    type: String,
    nullable: true,
    required: false,
    maxLength: REFERRER_GIFT_MAX_LENGTH,
    example: 'a Grove hoodie',
    description: 'The gift in the owner’s words, honoured by hand (kind gift)',
  })
  @Allow()
  giftText!: string | null;

  @ApiProperty({
    type: Number,
    minimum: 1,
    maximum: 100,
    example: 100,
    description:
      "The most a member's branches take off their membership price, percent (100: down to $0)",
  })
  @Allow()
  capPercent!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: 1,
    maximum: AMOUNT_MAX_CENTS,
    example: 60000,
    description:
      "The most a member's branches take off in a year, integer cents (a twelfth of it a month); null: none",
  })
  @Allow()
  yearlyCapCents!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: 1,
    maximum: REWARDED_BRANCHES_MAX,
    example: 3,
    description:
      'The most branches of one referrer rewarded a year (the ongoing discount counts at most that many branches; the other rewards are owed for at most that many per calendar year); null: none',
  })
  @Allow()
  maxBranchesPerYear!: number | null;
}
