import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID, Matches, ValidateIf } from 'class-validator';
import { AUDIT_KINDS, AUDIT_MESSAGES, MESSAGES, type AuditKind } from '@grove/contracts';
import { PageQueryDto } from '../../common/page-query.dto';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const NOT_STAFF = ['mindbody', 'stripe', 'system'];

/**
 * Filters of `GET /api/audit-log` and its CSV (docs/product.md#audit-log): the member, the author
 * (a member of staff's user id, or `mindbody`, `stripe`, `system`), the kind, and the period
 * `from`–`to` (UTC days, both inclusive). A value outside a list → 400 'Please choose a filter
 * from the list.'; a day not YYYY-MM-DD → 400 'Please enter dates as YYYY-MM-DD.'.
 */
export class AuditFilterQueryDto {
  @ApiPropertyOptional({ description: 'Only entries about this member (its id)' })
  @IsOptional()
  @IsUUID('all', { message: MESSAGES.memberFilterInvalid })
  memberId?: string;

  @ApiPropertyOptional({
    description: "Only this author's entries: a staff user id, or mindbody, stripe, system",
  })
  @IsOptional()
  @ValidateIf((query: AuditFilterQueryDto) => !NOT_STAFF.includes(query.author ?? ''))
  @IsUUID('all', { message: MESSAGES.memberFilterInvalid })
  author?: string;

  @ApiPropertyOptional({ enum: AUDIT_KINDS, description: 'Only entries of this kind' })
  @IsOptional()
  @IsIn(AUDIT_KINDS, { message: MESSAGES.memberFilterInvalid })
  kind?: AuditKind;

  @ApiPropertyOptional({ description: 'First day (UTC, inclusive), YYYY-MM-DD' })
  @IsOptional()
  @Matches(DAY, { message: AUDIT_MESSAGES.dateInvalid })
  from?: string;

  @ApiPropertyOptional({ description: 'Last day (UTC, inclusive), YYYY-MM-DD' })
  @IsOptional()
  @Matches(DAY, { message: AUDIT_MESSAGES.dateInvalid })
  to?: string;
}

/** `GET /api/audit-log`: the filters, `page` and `pageSize` (at most 100, default 50). */
export class AuditLogQueryDto extends IntersectionType(PageQueryDto, AuditFilterQueryDto) {}
