import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MEMBER_SORT_KEYS, type ListMembersQuery, type MemberSortKey } from '@grove/contracts';
import { trimString } from '../../common/contract-rule.decorator';
import { PageQueryDto } from '../../common/page-query.dto';

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

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the name or email' })
  @IsOptional()
  @Transform(trimString)
  @IsString()
  @MaxLength(200)
  search?: string;
}
