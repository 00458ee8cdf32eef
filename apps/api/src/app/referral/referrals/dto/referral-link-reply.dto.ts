import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  JoinReferralReply,
  Page,
  ReferralInfo,
  ReferralLink,
  ReferralLinkRow,
} from '@grove/contracts';
import { PageDto } from '../../../platform/common/dto/page.dto';

/** A member's live referral link (docs/product.md#referral-links Referral Links). */
@ApiSchema({ name: 'ReferralLink' })
export class ReferralLinkDto implements ReferralLink {
  @ApiProperty({
    type: String,
    description: 'Unguessable, URL-safe code (the last path segment of `url`)',
  })
  code!: string;

  @ApiProperty({ type: String, description: 'The join page: `<PUBLIC_ORIGIN>/referral/<code>`' })
  url!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'ISO date-time' })
  createdAt!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the link stops working (ISO date-time); null = never',
  })
  expiresAt!: string | null;
}

/** One row of the Referral Links screen: a member (tree) and its live link, or null. */
@ApiSchema({ name: 'ReferralLinkRow' })
export class ReferralLinkRowDto implements ReferralLinkRow {
  @ApiProperty({ type: String, format: 'uuid' })
  memberId!: string;

  @ApiProperty({ type: String })
  memberName!: string;

  @ApiProperty({ type: String })
  memberEmail!: string;

  @ApiProperty({ type: ReferralLinkDto, nullable: true })
  link!: ReferralLinkDto | null;
}

/** `GET /api/referral-links`: a page (1-based) of members with their live link, oldest first. */
@ApiSchema({ name: 'ReferralLinkRowsPage' })
export class ReferralLinkRowsPageDto extends PageDto implements Page<ReferralLinkRow> {
  @ApiProperty({ type: [ReferralLinkRowDto] })
  items!: ReferralLinkRowDto[];
}

/** `GET /api/referrals/:code` (public): what the join page shows. */
@ApiSchema({ name: 'ReferralInfo' })
export class ReferralInfoDto implements ReferralInfo {
  @ApiProperty({ type: String })
  businessName!: string;

  @ApiProperty({ type: String })
  referrerFirstName!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Your first month free',
    description:
      "The business's welcome offer for the friend, worded (`welcomeOfferWording`, docs/product.md#welcome-offer); null for none",
  })
  welcomeOffer!: string | null;

  @ApiProperty({
    type: String,
    example: 'a $25 credit',
    description:
      "What the referrer gets for the friend, after '{referrer} gets' (`referrerRewardWording`, friend voice, docs/product.md#referrer-reward): 'a lower membership price' for the ongoing discount (no amount), else the credit, free period or gift",
  })
  referrerReward!: string;
}

/** `POST /api/referrals/:code/join` reply: `{ message: 'Successfully registered!' }`. */
@ApiSchema({ name: 'JoinReferralReply' })
export class JoinReferralReplyDto implements JoinReferralReply {
  @ApiProperty({ type: String, example: 'Successfully registered!' })
  message!: string;
}
