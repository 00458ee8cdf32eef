import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MEMBER_SORT_KEYS, PAGE_SIZE_MAX, type ListMembersQuery, type MemberSortKey } from '@grove/contracts';
import { trimString } from '../../common/contract-rule.decorator';

/** Default page size of `GET /api/members`. */
export const DEFAULT_PAGE_SIZE = 50;

/** Query of `GET /api/members` (1-based page; page size 1–100, default 50). */
export class ListMembersQueryDto implements ListMembersQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_SIZE_MAX, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PAGE_SIZE_MAX)
  pageSize?: number;

  @ApiPropertyOptional({ enum: MEMBER_SORT_KEYS, default: 'createdAt' })
  @IsOptional()
  @IsIn(MEMBER_SORT_KEYS)
  sort?: MemberSortKey;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the name or email' })
  @IsOptional()
  @Transform(trimString)
  @IsString()
  @MaxLength(200)
  search?: string;
}
