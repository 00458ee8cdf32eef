import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  JOIN_FLAG_REASON_TEXT,
  type ApprovalPrefill,
  type FlaggedJoinRow,
  type IntegrationName,
  type JoinSignal,
  type Page,
  type ProspectRow,
} from '@grove/contracts';
import { INTEGRATION_NAMES } from '../../../membership/members/dto/member-row.dto';
import { PageDto } from '../../../platform/common/dto/page.dto';

/** Every `JoinSignal` (the keys of the texts the screen shows for them). */
const JOIN_SIGNALS = Object.keys(JOIN_FLAG_REASON_TEXT) as JoinSignal[];

/**
 * What the approval form starts from (cents; null = unknown, the field starts empty): the
 * referrer's membership price and discount per referral, else the business's defaults
 * (docs/product.md#member-defaults).
 */
@ApiSchema({ name: 'ApprovalPrefill' })
export class ApprovalPrefillDto implements ApprovalPrefill {
  @ApiProperty({ type: Number, nullable: true, description: 'Membership price, cents' })
  membershipPriceCents!: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Discount per referral, cents' })
  discountCents!: number | null;
}

/** One row of the Prospective Members screen (docs/product.md#prospective-members). */
@ApiSchema({ name: 'ProspectRow' })
export class ProspectRowDto implements ProspectRow {
  @ApiProperty({ type: String, format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String })
  name!: string;

  @ApiProperty({ type: String })
  email!: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "Whose link was used; null for a friend of the business's own join page",
  })
  referringMemberId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  referringMemberName!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Jenny (spin class)',
    description:
      "What a friend of the business's join page answered to 'Who referred you?' (null: nothing, or a referral link)",
  })
  referredByNote!: string | null;

  @ApiProperty({
    enum: INTEGRATION_NAMES,
    enumName: 'IntegrationName',
    nullable: true,
    description: "'Mindbody' for integration-managed prospects, else null",
  })
  managedByIntegration!: IntegrationName | null;

  @ApiProperty({
    enum: JOIN_SIGNALS,
    enumName: 'JoinSignal',
    isArray: true,
    description: 'Fraud signals raised by the join (sorted; empty when it passed every check)',
  })
  flags!: JoinSignal[];

  @ApiProperty({ type: String, format: 'date-time', description: 'ISO date-time' })
  createdAt!: string;

  @ApiProperty({ type: ApprovalPrefillDto })
  approvalPrefill!: ApprovalPrefillDto;
}

/**
 * A join through a referral link answered like any other but not queued (it raised a blocking
 * signal: 'already_member' or 'self_referral'), until the owner dismisses it.
 */
@ApiSchema({ name: 'FlaggedJoinRow' })
export class FlaggedJoinRowDto implements FlaggedJoinRow {
  @ApiProperty({ type: String, format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String, description: 'As the friend typed it (the latest attempt)' })
  name!: string;

  @ApiProperty({ type: String, description: 'As the friend typed it (the latest attempt)' })
  email!: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    description: 'Whose link was used (the latest attempt)',
  })
  referringMemberId!: string;

  @ApiProperty({ type: String })
  referringMemberName!: string;

  @ApiProperty({
    enum: JOIN_SIGNALS,
    enumName: 'JoinSignal',
    isArray: true,
    description: 'Sorted, at least one',
  })
  reasons!: JoinSignal[];

  @ApiProperty({ type: Number, description: 'How many joins this flag stands for' })
  attempts!: number;

  @ApiProperty({ type: String, format: 'date-time', description: 'ISO date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'ISO date-time' })
  lastAttemptAt!: string;
}

/** `GET /api/prospects`: a page (1-based) of prospective members, oldest first. */
@ApiSchema({ name: 'ProspectsPage' })
export class ProspectsPageDto extends PageDto implements Page<ProspectRow> {
  @ApiProperty({ type: [ProspectRowDto] })
  items!: ProspectRowDto[];
}

/** `GET /api/prospects/flags`: a page (1-based) of flagged joins, oldest first. */
@ApiSchema({ name: 'FlaggedJoinsPage' })
export class FlaggedJoinsPageDto extends PageDto implements Page<FlaggedJoinRow> {
  @ApiProperty({ type: [FlaggedJoinRowDto] })
  items!: FlaggedJoinRowDto[];
}
