import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { CreateReferralLinkRequest } from '@grove/contracts';
import { PageQueryDto, SearchQuery } from '../../../platform/common/page-query.dto';

/** Longest lifetime of a referral link, in days. */
export const REFERRAL_LINK_MAX_DAYS = 365;

/** Optional body of `POST /api/members/:memberId/referral-link` and `…/rotate`. */
export class CreateReferralLinkDto implements CreateReferralLinkRequest {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: REFERRAL_LINK_MAX_DAYS,
    description: 'Absent: the link never expires',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(REFERRAL_LINK_MAX_DAYS)
  expiresInDays?: number;
}

/** Query of `GET /api/referral-links` (1-based page; page size 1–100, default 50). */
export class ListReferralLinksQueryDto extends PageQueryDto {
  @SearchQuery("Case-insensitive substring of the member's name or email")
  search?: string;
}
