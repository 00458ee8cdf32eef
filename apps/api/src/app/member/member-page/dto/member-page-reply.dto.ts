import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type {
  BusinessLocale,
  MemberBranch,
  MemberBranchStatus,
  MemberLedgerLine,
  MemberPage,
  MemberProjection,
} from '@grove/contracts';

const BRANCH_STATUSES: MemberBranchStatus[] = ['pending', 'counting', 'ended', 'suspended'];

/** How a business writes money and dates (docs/decisions/business-locale.md). */
@ApiSchema({ name: 'BusinessLocale' })
export class BusinessLocaleDto implements BusinessLocale {
  @ApiProperty({ description: 'BCP 47, e.g. en-AU', example: 'en-AU' })
  locale!: string;

  @ApiProperty({ description: 'ISO 4217 currency code', example: 'AUD' })
  currency!: string;

  @ApiProperty({ description: 'IANA time zone dates are shown in', example: 'Australia/Sydney' })
  timeZone!: string;
}

/** One friend of the member page (first name only). */
@ApiSchema({ name: 'MemberBranch' })
export class MemberBranchDto implements MemberBranch {
  @ApiProperty({ description: "The friend's first name" })
  firstName!: string;

  @ApiProperty({
    enum: BRANCH_STATUSES,
    enumName: 'MemberBranchStatus',
    description: 'docs/product.md#branch-qualification',
  })
  status!: MemberBranchStatus;

  @ApiProperty({ description: 'ISO date-time: when they joined (pending) or became a branch' })
  since!: string;
}

/** One line of the member's price ledger (`price_changes`), cents. */
@ApiSchema({ name: 'MemberLedgerLine' })
export class MemberLedgerLineDto implements MemberLedgerLine {
  @ApiProperty({ description: 'ISO date-time' })
  occurredAt!: string;

  @ApiProperty({ description: "The ledger's reason, e.g. 'branch_added'" })
  reason!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Price before, cents' })
  oldPriceCents!: number | null;

  @ApiProperty({ type: 'integer', description: 'Price after, cents' })
  newPriceCents!: number;

  @ApiProperty({ type: 'integer', description: 'Membership price at the time, cents' })
  membershipPriceCents!: number;
}

/** "N more friends → price": the price after `friends` more counting branches, cents, floor 0. */
@ApiSchema({ name: 'MemberProjection' })
export class MemberProjectionDto implements MemberProjection {
  @ApiProperty({ type: 'integer' })
  friends!: number;

  @ApiProperty({ type: 'integer', description: 'Cents' })
  priceCents!: number;
}

/** What Mindbody will charge a Mindbody member next (issue 22). */
@ApiSchema({ name: 'MemberNextCharge' })
export class MemberNextChargeDto {
  @ApiProperty({ type: 'integer', description: 'Cents, tax and other products included' })
  amountCents!: number;

  @ApiProperty({ description: 'ISO date of the charge' })
  on!: string;
}

/** What Stripe will charge a member billed on the business's Stripe next (issue 32). */
@ApiSchema({ name: 'MemberStripeNextCharge' })
export class MemberStripeNextChargeDto {
  @ApiProperty({
    type: 'integer',
    description: "Cents of `currency`: the upcoming invoice's amount due",
  })
  amountCents!: number;

  @ApiProperty({ example: 'eur', description: "ISO 4217, lower case (the subscription's)" })
  currency!: string;

  @ApiProperty({ description: "ISO instant of the charge (the invoice's next payment attempt)" })
  at!: string;
}

/** `GET /api/member/me`: everything the member page shows (docs/product.md#member-page). Cents. */
@ApiSchema({ name: 'MemberPage' })
export class MemberPageDto implements MemberPage {
  @ApiProperty()
  businessName!: string;

  @ApiProperty({ type: BusinessLocaleDto })
  businessLocale!: BusinessLocaleDto;

  @ApiProperty()
  memberFirstName!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The live referral link URL; null before the owner makes one',
  })
  referralUrl!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The referral link's QR code as SVG markup; null without a link",
  })
  referralQrSvg!: string | null;

  @ApiProperty({
    description:
      "The message the member shares: the owner's or the default, {firstName}, {gym}, {offer} and {link} unfilled",
  })
  shareMessage!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The friend's welcome offer, worded (what {offer} becomes in the share message); null for none",
  })
  welcomeOffer!: string | null;

  @ApiProperty({ type: 'integer', description: 'Price before any discount, cents' })
  membershipPriceCents!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'What the member pays now, cents (a Mindbody member: null when not known)',
  })
  priceNowCents!: number | null;

  @ApiProperty({ type: 'integer', description: 'Discount per counting branch, cents' })
  discountPerBranchCents!: number;

  @ApiProperty({
    type: String,
    example: 'earns you a $25 credit',
    description:
      "What each friend who joins earns the member, after 'each friend who joins' (the business's reward for referrers)",
  })
  rewardPerFriend!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2 of 3 rewards left this year',
    description:
      "What is left under the business's most friends rewarded a year, in the member's words: a one-off reward counts the rewards owed this calendar year in the business's time zone (not capped), the ongoing discount its rewarded counting branches; null without a cap or for a Mindbody member",
  })
  rewardsLeft!: string | null;

  @ApiProperty({
    type: String,
    enum: ['Mindbody', 'Stripe'],
    nullable: true,
    description:
      "Who bills the member's price: 'Mindbody' (autopay), 'Stripe' (a subscription on the business's Stripe), null when kept in Grove by hand",
  })
  managedBy!: 'Mindbody' | 'Stripe' | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'USD',
    description:
      "ISO 4217 currency of every amount of the page when it is not the business's: a Stripe-billed member's subscription's; null for the business's own",
  })
  billCurrency!: string | null;

  @ApiPropertyOptional({
    type: MemberNextChargeDto,
    description: 'Only for a Mindbody member whose next charge Grove has read',
  })
  nextCharge?: MemberNextChargeDto;

  @ApiPropertyOptional({
    type: MemberStripeNextChargeDto,
    description:
      "Only for a member billed on the business's Stripe whose upcoming invoice Stripe answered within the page's 1.5 s budget; absent when it has none, is slow or fails",
  })
  stripeNextCharge?: MemberStripeNextChargeDto;

  @ApiProperty({ type: 'integer', description: 'Savings so far, cents' })
  savedSoFarCents!: number;

  @ApiProperty({ type: [MemberBranchDto] })
  branches!: MemberBranchDto[];

  @ApiProperty({ type: [MemberProjectionDto], description: 'At most 3 lines' })
  projections!: MemberProjectionDto[];

  @ApiProperty({ type: [MemberLedgerLineDto], description: 'Newest first, at most 50 lines' })
  ledger!: MemberLedgerLineDto[];
}

/**
 * Body of `POST /member/landing` (the HTML page's script, JSON): the magic link's token. Read by
 * the controller itself (a bad or missing token answers the signed-out page, 401), so this class
 * only documents it.
 */
@ApiSchema({ name: 'MemberPageLandingForm' })
export class MemberPageLandingFormDto {
  @ApiProperty({ description: 'The token after `#token=` in the magic link' })
  token!: string;
}

/**
 * Body of `POST /member` (the page's "send me a new link" form, urlencoded). Read by the
 * controller itself (a bad email answers the form again, 400), so this class only documents it.
 */
@ApiSchema({ name: 'MemberPageLinkForm' })
export class MemberPageLinkFormDto {
  @ApiProperty({ example: 'ana@example.com' })
  email!: string;
}
