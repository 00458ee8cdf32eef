import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  JOIN_CHANNELS,
  RETENTION_HORIZON_DAYS,
  type FunnelReport,
  type JoinChannelRow,
  type JoinChannelsReport,
  type FunnelStep,
  type MoneyMonth,
  type MoneyReport,
  type RetentionHorizon,
  type RetentionReport,
  type RetentionShare,
  type TopReferrer,
  type TopReferrersReport,
} from '@grove/contracts';

/** The period every report covers: calendar days (YYYY-MM-DD) in the business's time zone, inclusive. */
class AnalyticsPeriodDto {
  @ApiProperty({ example: '2026-10-30', description: 'First day, YYYY-MM-DD' })
  from!: string;

  @ApiProperty({ example: '2026-11-28', description: 'Last day, YYYY-MM-DD' })
  to!: string;
}

/** One step of the referral funnel. */
@ApiSchema({ name: 'FunnelStep' })
export class FunnelStepDto implements FunnelStep {
  @ApiProperty({ enum: ['links', 'visits', 'joins', 'approved'] })
  key!: FunnelStep['key'];

  @ApiProperty({ example: 'Links shared' })
  label!: string;

  @ApiProperty()
  count!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Share of the previous step (0–1); null for the first step or an empty one',
  })
  conversion!: number | null;
}

/** `GET /api/analytics/funnel`. */
@ApiSchema({ name: 'FunnelReport' })
export class FunnelReportDto extends AnalyticsPeriodDto implements FunnelReport {
  @ApiProperty({ type: [FunnelStepDto] })
  steps!: FunnelStepDto[];

  @ApiProperty({ type: Number, nullable: true, description: 'approved / links (0–1), or null' })
  overallConversion!: number | null;
}

/** One channel of the joins-by-channel report (counts of the period). */
@ApiSchema({ name: 'JoinChannelRow' })
export class JoinChannelRowDto implements JoinChannelRow {
  @ApiProperty({ enum: JOIN_CHANNELS, description: "The link's ?via=; direct for any other" })
  channel!: JoinChannelRow['channel'];

  @ApiProperty({ description: 'Join-page visits through it (once per visitor, link and day)' })
  visits!: number;

  @ApiProperty({ description: 'Friends who joined through it (prospective members created)' })
  joins!: number;

  @ApiProperty({ description: 'Friends who joined through it and were approved in the period' })
  approved!: number;
}

/** `GET /api/analytics/channels`. */
@ApiSchema({ name: 'JoinChannelsReport' })
export class JoinChannelsReportDto extends AnalyticsPeriodDto implements JoinChannelsReport {
  @ApiProperty({
    type: [JoinChannelRowDto],
    description: 'Channels with a count, most joins first; empty when none',
  })
  channels!: JoinChannelRowDto[];
}

/** One of the top referrers of the period. */
@ApiSchema({ name: 'TopReferrer' })
export class TopReferrerDto implements TopReferrer {
  @ApiProperty({ format: 'uuid' })
  memberId!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null once the member was removed' })
  memberName!: string | null;

  @ApiProperty()
  branchesGained!: number;

  @ApiProperty({ description: 'Discounts received in the period, cents' })
  savingsCents!: number;
}

/** `GET /api/analytics/referrers`. */
@ApiSchema({ name: 'TopReferrersReport' })
export class TopReferrersReportDto extends AnalyticsPeriodDto implements TopReferrersReport {
  @ApiProperty({ type: [TopReferrerDto] })
  referrers!: TopReferrerDto[];
}

/** One month of the money report, cents. */
@ApiSchema({ name: 'MoneyMonth' })
export class MoneyMonthDto implements MoneyMonth {
  @ApiProperty({ example: '2026-11', description: 'YYYY-MM' })
  month!: string;

  @ApiProperty({ description: 'Referral discounts given, cents' })
  discountsCents!: number;

  @ApiProperty({ description: 'Revenue of referred members, cents' })
  referredRevenueCents!: number;
}

/** `GET /api/analytics/money`. */
@ApiSchema({ name: 'MoneyReport' })
export class MoneyReportDto extends AnalyticsPeriodDto implements MoneyReport {
  @ApiProperty({ type: [MoneyMonthDto] })
  months!: MoneyMonthDto[];

  @ApiProperty({ description: 'cents' })
  totalDiscountsCents!: number;

  @ApiProperty({ description: 'cents' })
  totalReferredRevenueCents!: number;

  @ApiProperty({ description: 'Welcome offers granted to friends approved in the period' })
  welcomeOffersGranted!: number;

  @ApiProperty({
    description:
      'Their cost, cents: amount, percent and free offers over their months at the friend’s membership price',
  })
  welcomeOffersCostCents!: number;

  @ApiProperty({ description: 'Of those granted, text offers honoured by hand (no amount)' })
  welcomeOffersByHand!: number;
}

/** Members still active after a horizon, of those who could be. */
@ApiSchema({ name: 'RetentionShare' })
export class RetentionShareDto implements RetentionShare {
  @ApiProperty()
  eligible!: number;

  @ApiProperty()
  active!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'active / eligible (0–1), or null' })
  share!: number | null;
}

/** Retention at one horizon, referred vs non-referred members. */
@ApiSchema({ name: 'RetentionHorizon' })
export class RetentionHorizonDto implements RetentionHorizon {
  @ApiProperty({ enum: RETENTION_HORIZON_DAYS, description: 'days' })
  days!: RetentionHorizon['days'];

  @ApiProperty({ type: RetentionShareDto })
  referred!: RetentionShareDto;

  @ApiProperty({ type: RetentionShareDto })
  nonReferred!: RetentionShareDto;
}

/** `GET /api/analytics/retention`. */
@ApiSchema({ name: 'RetentionReport' })
export class RetentionReportDto extends AnalyticsPeriodDto implements RetentionReport {
  @ApiProperty({ type: [RetentionHorizonDto] })
  horizons!: RetentionHorizonDto[];
}
