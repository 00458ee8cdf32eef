import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { ANALYTICS_MESSAGES, type AnalyticsPeriodQuery } from '@grove/contracts';

/**
 * Query of every `GET /api/analytics/*` route: `period` (30, 90 or 365) or `from` and `to`
 * (inclusive `YYYY-MM-DD`, UTC). Each must be given at most once as text; the period rule itself
 * (contracts' `resolveAnalyticsPeriod`) is applied by `AnalyticsService` → 400.
 */
export class AnalyticsPeriodQueryDto implements AnalyticsPeriodQuery {
  @ApiPropertyOptional({
    enum: ['30', '90', '365'],
    description: 'The last N days, today included',
  })
  @IsOptional()
  @IsString({ message: ANALYTICS_MESSAGES.periodInvalid })
  period?: string;

  @ApiPropertyOptional({ example: '2026-01-01', description: 'First day (UTC), with `to`' })
  @IsOptional()
  @IsString({ message: ANALYTICS_MESSAGES.dateInvalid })
  from?: string;

  @ApiPropertyOptional({
    example: '2026-03-31',
    description: 'Last day (UTC, inclusive), with `from`',
  })
  @IsOptional()
  @IsString({ message: ANALYTICS_MESSAGES.dateInvalid })
  to?: string;
}
