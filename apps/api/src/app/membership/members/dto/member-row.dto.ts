import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  MEMBER_STATUSES,
  type BranchDetail,
  type IntegrationName,
  type MemberRow,
  type MembersPage,
  type MemberStatus,
} from '@grove/contracts';
import { PageDto } from '../../../platform/common/dto/page.dto';

/** The integrations that can manage a member (`IntegrationName`). */
export const INTEGRATION_NAMES = [
  'Mindbody',
  'Stripe',
] as const satisfies readonly IntegrationName[];

/** A branch as listed on its tree (docs/product.md#entities "Branch detail"). */
@ApiSchema({ name: 'BranchDetail' })
export class BranchDetailDto implements BranchDetail {
  @ApiProperty({ type: String, format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String })
  branchName!: string;

  @ApiProperty({ type: String })
  branchEmail!: string;

  @ApiProperty({
    enum: MEMBER_STATUSES,
    enumName: 'MemberStatus',
    description: "Whether it lowers the tree's price now ('Active') or why not",
  })
  status!: MemberStatus;
}

/** What Mindbody will charge a running membership next (issue 22). */
@ApiSchema({ name: 'MindbodyNextCharge' })
export class MindbodyNextChargeDto {
  @ApiProperty({
    type: Number,
    description: 'Cents, tax and every product of the contract included',
  })
  amountCents!: number;

  @ApiProperty({ type: String, description: 'When, ISO date-time' })
  on!: string;
}

/** 'Add to Mindbody' not done yet (issue 33 item 4): pending, or failed with why. */
@ApiSchema({ name: 'MindbodyClientRequest' })
export class MindbodyClientRequestDto {
  @ApiProperty({ enum: ['pending', 'failed'] })
  state!: 'pending' | 'failed';

  @ApiPropertyOptional({
    type: String,
    description:
      'Only when failed: why, for the owner (Mindbody refused it, or could not be reached)',
  })
  message?: string;
}

/**
 * One row of the Branches screen (docs/product.md#branches, derived fields from
 * docs/product.md#entities): `GET /api/members/:id` and the reply of every write of a member.
 * Money in cents.
 */
@ApiSchema({ name: 'MemberRow' })
export class MemberRowDto implements MemberRow {
  @ApiProperty({ type: String, format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String })
  memberName!: string;

  @ApiProperty({ type: String })
  memberEmail!: string;

  @ApiProperty({ type: Number, description: 'Membership price before discounts, cents' })
  membershipPriceCents!: number;

  @ApiProperty({
    type: Number,
    description:
      "Discount per referral, cents (Mindbody rows: the integration's discountOnReferral)",
  })
  discountCents!: number;

  @ApiProperty({
    type: Number,
    description: "Branches that count now: the entries of branchDetails whose status is 'Active'",
  })
  branches!: number;

  @ApiProperty({ type: [BranchDetailDto] })
  branchDetails!: BranchDetailDto[];

  @ApiProperty({ type: Number, description: 'Price after discounts, cents' })
  newPriceCents!: number;

  @ApiProperty({ enum: MEMBER_STATUSES, enumName: 'MemberStatus' })
  status!: MemberStatus;

  @ApiProperty({
    enum: INTEGRATION_NAMES,
    enumName: 'IntegrationName',
    nullable: true,
    description: 'The integration that manages the member; null for members kept by hand',
  })
  managedByIntegration!: IntegrationName | null;

  @ApiPropertyOptional({
    enum: [true],
    description:
      "Only while a Mindbody member's price is not known yet (prices are 0 placeholders)",
  })
  membershipPricePending?: true;

  @ApiPropertyOptional({
    enum: [true],
    description: 'Only for a Mindbody member without an autopay contract (prices are 0)',
  })
  noAutopayContract?: true;

  @ApiPropertyOptional({
    type: MindbodyNextChargeDto,
    description: 'Only for a running Mindbody membership whose next charge Grove has read',
  })
  mindbodyNextCharge?: MindbodyNextChargeDto;

  @ApiPropertyOptional({
    type: String,
    description:
      'Only for a Mindbody client with a ReferredBy: how they heard of the business (a label)',
  })
  mindbodyReferralSource?: string;

  @ApiPropertyOptional({
    type: MindbodyClientRequestDto,
    description:
      "Only for a member approved with 'Add to Mindbody' whose Mindbody client is not added yet: pending, or failed with why",
  })
  mindbodyClientRequest?: MindbodyClientRequestDto;

  @ApiPropertyOptional({
    enum: [true],
    description: 'Only for a Mindbody member whose membership has ended',
  })
  membershipEnded?: true;

  @ApiPropertyOptional({
    enum: [true],
    description:
      "Only for a hand-managed member whose counting branches would take the price past the business's reward cap or below $0 (the price shown is the capped one)",
  })
  rewardCapped?: true;

  @ApiPropertyOptional({
    enum: ['running', 'ended'],
    enumName: 'StripeBilling',
    description:
      "Only for a member billed on the business's Stripe (issue 32): its subscription running, or ended (the status is then 'Ended')",
  })
  stripeBilling?: 'running' | 'ended';

  @ApiPropertyOptional({
    type: String,
    example: 'EUR',
    description:
      "Only for a member billed on the business's Stripe: the ISO 4217 code (upper case) of its subscription's currency, which this row's amounts (cents) are in; absent: the business's currency",
  })
  currency?: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The tree this member is a branch of, if any',
  })
  referringMemberId!: string | null;
}

/**
 * `GET /api/members`: a page of trees (`page` is 1-based), and the names of the members the
 * page's trees were referred by (id → name; present when one of them was).
 */
@ApiSchema({ name: 'MembersPage' })
export class MembersPageDto extends PageDto implements MembersPage {
  @ApiProperty({ type: [MemberRowDto] })
  items!: MemberRowDto[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Member id → name of the members the trees of this page were referred by',
  })
  referrerNames?: Record<string, string>;
}
