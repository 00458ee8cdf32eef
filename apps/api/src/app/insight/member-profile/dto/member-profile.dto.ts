import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  MEMBER_STATUSES,
  PRICE_CHANGE_REASON_TEXT,
  PROFILE_PROSPECT_STATUS_TEXT,
  type MemberProfile,
  type MemberStatus,
  type PriceChangeReason,
  type PriceLedgerLine,
  type ProfileProspect,
  type ProfileProspectStatus,
  type ReferralTreeNode,
} from '@grove/contracts';
import { MemberRowDto } from '../../../membership/members/dto/member-row.dto';
import { ReferralLinkDto } from '../../../referral/referrals/dto/referral-link-reply.dto';

/**
 * One member of a referral tree: a branch with the branches it grew in turn, up to
 * `REFERRAL_TREE_MAX_DEPTH` levels (docs/product.md#member-profile).
 */
@ApiSchema({ name: 'ReferralTreeNode' })
export class ReferralTreeNodeDto implements ReferralTreeNode {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'date-time' })
  joinedAt!: string;

  @ApiProperty({ enum: MEMBER_STATUSES, enumName: 'MemberStatus' })
  status!: MemberStatus;

  @ApiProperty({ type: () => [ReferralTreeNodeDto] })
  branches!: ReferralTreeNodeDto[];

  @ApiProperty({ description: 'Branches below the depth or node cap, counted but not listed' })
  hiddenBranches!: number;
}

/** One line of a member's price ledger (cents). */
@ApiSchema({ name: 'PriceLedgerLine' })
export class PriceLedgerLineDto implements PriceLedgerLine {
  @ApiProperty({ format: 'date-time' })
  occurredAt!: string;

  @ApiProperty({ enum: Object.keys(PRICE_CHANGE_REASON_TEXT), enumName: 'PriceChangeReason' })
  reason!: PriceChangeReason;

  @ApiProperty({ type: Number, nullable: true, description: 'cents; null for the first line' })
  oldPriceCents!: number | null;

  @ApiProperty({ description: 'cents' })
  newPriceCents!: number;

  @ApiProperty({ type: String, nullable: true, description: 'The branch the change is about' })
  branchName!: string | null;
}

/** Someone who joined through the member's referral link, and what became of them. */
@ApiSchema({ name: 'ProfileProspect' })
export class ProfileProspectDto implements ProfileProspect {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  email!: string | null;

  @ApiProperty({ format: 'date-time' })
  joinedAt!: string;

  @ApiProperty({
    enum: Object.keys(PROFILE_PROSPECT_STATUS_TEXT),
    enumName: 'ProfileProspectStatus',
  })
  status!: ProfileProspectStatus;

  @ApiProperty({ type: String, nullable: true, description: 'The member they became, if approved' })
  memberId!: string | null;
}

/** The tree a member is a branch of. */
@ApiSchema({ name: 'ProfileReferrer' })
export class ProfileReferrerDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;
}

/** `GET /api/members/:id/profile`: details, referral tree, price ledger, link and prospects. */
@ApiSchema({ name: 'MemberProfile' })
export class MemberProfileDto implements MemberProfile {
  @ApiProperty({ type: MemberRowDto })
  member!: MemberRowDto;

  @ApiProperty({ format: 'date-time' })
  joinedAt!: string;

  @ApiProperty({ type: ProfileReferrerDto, nullable: true })
  referredBy!: ProfileReferrerDto | null;

  @ApiProperty({ type: [ReferralTreeNodeDto] })
  tree!: ReferralTreeNodeDto[];

  @ApiProperty({ type: [PriceLedgerLineDto] })
  ledger!: PriceLedgerLineDto[];

  @ApiProperty({ type: ReferralLinkDto, nullable: true })
  referralLink!: ReferralLinkDto | null;

  @ApiProperty({ type: [ProfileProspectDto] })
  prospects!: ProfileProspectDto[];
}
