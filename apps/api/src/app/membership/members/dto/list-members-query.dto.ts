import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import {
  MEMBER_LINK_FILTERS,
  MEMBER_MANAGED_FILTERS,
  MEMBER_SORT_KEYS,
  MEMBER_STATUSES,
  MESSAGES,
  type ListMembersQuery,
  type MemberLinkFilter,
  type MemberManagedFilter,
  type MemberSortKey,
  type MemberStatus,
} from '@grove/contracts';
import { PageQueryDto, SearchQuery } from '../../../platform/common/page-query.dto';

/**
 * `GET /api/members` query: page, sort, search and filters (docs/product.md#branches). A value
 * outside a filter's list answers 400 'Please choose a filter from the list.'.
 */
export class ListMembersQueryDto extends PageQueryDto implements ListMembersQuery {
  @ApiPropertyOptional({ enum: MEMBER_SORT_KEYS, default: 'createdAt' })
  @IsOptional()
  @IsIn(MEMBER_SORT_KEYS)
  sort?: MemberSortKey;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @SearchQuery('Case-insensitive substring of the name or email')
  search?: string;

  @ApiPropertyOptional({ enum: MEMBER_STATUSES, description: 'Only members of this status' })
  @IsOptional()
  @IsIn(MEMBER_STATUSES, { message: MESSAGES.memberFilterInvalid })
  status?: MemberStatus;

  @ApiPropertyOptional({
    enum: MEMBER_MANAGED_FILTERS,
    description:
      'Only Mindbody-managed members, only those billed on the business’s Stripe, or only Grove’s own',
  })
  @IsOptional()
  @IsIn(MEMBER_MANAGED_FILTERS, { message: MESSAGES.memberFilterInvalid })
  managed?: MemberManagedFilter;

  @ApiPropertyOptional({
    enum: MEMBER_LINK_FILTERS,
    description: 'Only members with (yes) or without (no) a live referral link',
  })
  @IsOptional()
  @IsIn(MEMBER_LINK_FILTERS, { message: MESSAGES.memberFilterInvalid })
  hasLink?: MemberLinkFilter;

  @ApiPropertyOptional({ description: 'Only the branches of this member (its id)' })
  @IsOptional()
  @IsUUID('all', { message: MESSAGES.memberFilterInvalid })
  referredBy?: string;
}
