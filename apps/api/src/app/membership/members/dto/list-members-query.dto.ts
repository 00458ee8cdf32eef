import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { MEMBER_SORT_KEYS, type ListMembersQuery, type MemberSortKey } from '@grove/contracts';
import { PageQueryDto, SearchQuery } from '../../../platform/common/page-query.dto';

/** Query of `GET /api/members` (1-based page; page size 1–100, default 50). */
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
}
