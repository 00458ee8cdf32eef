import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import {
  MESSAGES,
  type MatchReferralRequest,
  type ReferralToMatch,
  type ReferralsToMatch,
} from '@grove/contracts';

/** One member waiting in Referrals to match (issue 33 item 4, docs/product.md#referrals-to-match). */
@ApiSchema({ name: 'ReferralToMatch' })
export class ReferralToMatchDto implements ReferralToMatch {
  @ApiProperty({ format: 'uuid' })
  memberId!: string;

  @ApiProperty({ example: "Ben O'Connor" })
  memberName!: string;

  @ApiProperty({ example: 'ben@example.com' })
  memberEmail!: string;

  @ApiProperty({ example: 'Jenny (spin class)', description: 'Who referred them, as typed' })
  referredByNote!: string;

  @ApiProperty({ format: 'date-time', description: 'When the member was added' })
  addedAt!: string;
}

/** `GET /api/referrals-to-match`: the oldest waiting first, at most 100, and how many wait. */
@ApiSchema({ name: 'ReferralsToMatch' })
export class ReferralsToMatchDto implements ReferralsToMatch {
  @ApiProperty({ type: [ReferralToMatchDto] })
  items!: ReferralToMatchDto[];

  @ApiProperty({ type: 'integer', description: 'How many members wait, all of them' })
  total!: number;
}

/**
 * `POST /api/referrals-to-match/:memberId/match` body: the member who referred them (id, of the
 * session's business; another business's id answers 404 'Member not found').
 */
@ApiSchema({ name: 'MatchReferralRequest' })
export class MatchReferralDto implements MatchReferralRequest {
  @ApiProperty({ format: 'uuid', description: 'The member who referred them' })
  @IsUUID('all', { message: MESSAGES.memberNotFound })
  referrerId!: string;
}
