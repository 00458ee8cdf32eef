import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { AnalyticsService } from './analytics.service';
import { AnalyticsPeriodQueryDto } from './dto/analytics-period-query.dto';
import {
  FunnelReportDto,
  JoinChannelsReportDto,
  MoneyReportDto,
  RetentionReportDto,
  TopReferrersReportDto,
} from './dto/analytics-reports.dto';

/**
 * The analytics screen's figures (issue 14) for the signed-in owner's business only. Every route
 * takes the period query (`period`=30|90|365, or `from`/`to` `YYYY-MM-DD` inclusive, UTC; none =
 * the last 30 days); a bad one → 400 `{ message, fieldErrors }` (contracts'
 * `ANALYTICS_MESSAGES`); 401 without a session. Money in cents.
 */
@ApiTags('analytics')
@ApiCookieAuth('grove_access')
@Controller('analytics')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  /** → 200 `FunnelReport`: links shared (opened or emailed in the period) → join-page visits → joins → approved branches. */
  @Get('funnel')
  @ApiOkResponse({ type: FunnelReportDto })
  @ApiOperation({ summary: 'Referral funnel with conversion rates' })
  funnel(
    @CurrentUser() user: AuthUser,
    @Query() query: AnalyticsPeriodQueryDto,
  ): Promise<FunnelReportDto> {
    return this.analytics.funnel(sessionScope(user), query);
  }

  /**
   * → 200 `JoinChannelsReport`: per share channel (the referral link's `?via=`, `direct` for any
   * other), join-page visits, joins and approvals of the period; channels without any left out.
   */
  @Get('channels')
  @ApiOkResponse({ type: JoinChannelsReportDto })
  @ApiOperation({ summary: 'Joins by channel: visits, joins and approvals per share channel' })
  channels(
    @CurrentUser() user: AuthUser,
    @Query() query: AnalyticsPeriodQueryDto,
  ): Promise<JoinChannelsReportDto> {
    return this.analytics.channels(sessionScope(user), query);
  }

  /** → 200 `TopReferrersReport`: the ten members who gained the most branches, with savings (cents). */
  @Get('referrers')
  @ApiOkResponse({ type: TopReferrersReportDto })
  @ApiOperation({ summary: 'Top referrers: branches gained and savings received' })
  referrers(
    @CurrentUser() user: AuthUser,
    @Query() query: AnalyticsPeriodQueryDto,
  ): Promise<TopReferrersReportDto> {
    return this.analytics.topReferrers(sessionScope(user), query);
  }

  /** → 200 `MoneyReport`: per month, discounts given vs referred members' revenue (cents). */
  @Get('money')
  @ApiOkResponse({ type: MoneyReportDto })
  @ApiOperation({ summary: 'Monthly discounts given vs revenue of referred members' })
  money(
    @CurrentUser() user: AuthUser,
    @Query() query: AnalyticsPeriodQueryDto,
  ): Promise<MoneyReportDto> {
    return this.analytics.money(sessionScope(user), query);
  }

  /** → 200 `RetentionReport`: referred vs other members still active 30/90/180 days after joining. */
  @Get('retention')
  @ApiOkResponse({ type: RetentionReportDto })
  @ApiOperation({ summary: 'Retention of referred vs non-referred members' })
  retention(
    @CurrentUser() user: AuthUser,
    @Query() query: AnalyticsPeriodQueryDto,
  ): Promise<RetentionReportDto> {
    return this.analytics.retention(sessionScope(user), query);
  }
}
