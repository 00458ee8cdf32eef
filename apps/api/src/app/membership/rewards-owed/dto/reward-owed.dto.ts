import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ReferrerRewardOwed } from '@grove/contracts';

/**
 * A reward owed to a referrer for one counting branch (docs/product.md#referrer-reward 'Rewards
 * to honour'): the reward as it was when the branch started counting, worded in the business's
 * currency; `capped` when past the referrer's yearly number (nothing owed); `honouredAt` once the
 * owner marked it honoured, else null.
 */
@ApiSchema({ name: 'ReferrerRewardOwed' })
export class ReferrerRewardOwedDto implements ReferrerRewardOwed {
  @ApiProperty({ type: String, format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The member who referred the friend' })
  referrerId!: string;

  @ApiProperty({ type: String })
  referrerName!: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The friend, a counting branch' })
  branchId!: string;

  @ApiProperty({ type: String })
  branchName!: string;

  @ApiProperty({ type: String, example: 'A $25 credit' })
  wording!: string;

  @ApiProperty({
    type: Boolean,
    description: 'Past the cap on friends rewarded a year: nothing owed',
  })
  capped!: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'When the branch started counting',
  })
  countedAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  honouredAt!: string | null;
}

/** `GET /api/referrer-rewards`: the rewards owed, to honour first (at most 200). */
@ApiSchema({ name: 'ReferrerRewardsOwed' })
export class ReferrerRewardsOwedDto {
  @ApiProperty({ type: [ReferrerRewardOwedDto] })
  items!: ReferrerRewardOwedDto[];
}
