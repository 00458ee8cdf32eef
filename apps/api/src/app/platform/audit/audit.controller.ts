import { Body, Controller, Get, Header, Put, Query, StreamableFile } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../common/auth-user';
import { sessionScope } from '../database/business-scope';
import { AuditFilterQueryDto, AuditLogQueryDto } from './dto/audit-log-query.dto';
import { AuditAuthorDto, AuditLogPageDto, AuditRetentionDto } from './dto/audit-log-reply.dto';
import { AuditService } from './audit.service';

/**
 * The audit log, "Activity" in the dashboard (issue 34 item 2, docs/product.md#audit-log): owners
 * and managers read it (the role table); only the session's business. 401 without a session,
 * 403 for another role.
 */
@ApiTags('audit-log')
@ApiCookieAuth('grove_access')
@Controller('audit-log')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /**
   * Query: `memberId`, `author` (a staff user id, or mindbody, stripe, system), `kind`, `from` and
   * `to` (UTC days YYYY-MM-DD, inclusive), `page`, `pageSize` (1–100, default 50).
   * → 200 `AuditLogPage`, newest first; 400 'Please choose a filter from the list.', 'Please enter
   * dates as YYYY-MM-DD.', 'The end date must not be before the start date.', or a page message.
   */
  @Get()
  @ApiOperation({ summary: 'The audit log, newest first, filtered and paginated' })
  @ApiOkResponse({ type: AuditLogPageDto })
  page(@CurrentUser() user: AuthUser, @Query() query: AuditLogQueryDto): Promise<AuditLogPageDto> {
    return this.audit.page(sessionScope(user), query);
  }

  /**
   * The same filters as `GET /api/audit-log` → 200 text/csv (UTF-8 with a byte-order mark),
   * streamed, newest first, at most 50,000 entries, the attachment `grove-activity-<YYYY-MM-DD>.csv`;
   * 400 as the list.
   */
  @Get('export')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The audit log as CSV' })
  @ApiOkResponse({ content: { 'text/csv': { schema: { type: 'string' } } } })
  export(@CurrentUser() user: AuthUser, @Query() query: AuditFilterQueryDto): StreamableFile {
    const csv = this.audit.csv(sessionScope(user), query);
    const day = new Date().toISOString().slice(0, 10);
    // Typed here, not by @Header: an error reply stays JSON.
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="grove-activity-${day}.csv"`,
    });
  }

  /** → 200 `AuditAuthor[]`: everyone who wrote in the log (staff by their latest name), by name. */
  @Get('authors')
  @ApiOperation({ summary: 'Everyone who wrote in the audit log, for the person filter' })
  @ApiOkResponse({ type: [AuditAuthorDto] })
  authors(@CurrentUser() user: AuthUser): Promise<AuditAuthorDto[]> {
    return this.audit.authors(sessionScope(user));
  }

  /** → 200 `AuditRetention` `{ days }`: how long the log is kept (default 730, two years). */
  @Get('retention')
  @ApiOperation({ summary: 'How many days the audit log is kept' })
  @ApiOkResponse({ type: AuditRetentionDto })
  retention(@CurrentUser() user: AuthUser): Promise<AuditRetentionDto> {
    return this.audit.retention(sessionScope(user));
  }

  /**
   * Body `{ days }` (integer 30–3650) → 200 `{ days }`, recorded in the log; 400 'Keep the
   * activity log between 30 and 3650 days.', nothing changed. Entries older go at the next daily
   * prune.
   */
  @Put('retention')
  @ApiOperation({ summary: 'Set how many days the audit log is kept' })
  @ApiOkResponse({ type: AuditRetentionDto })
  setRetention(
    @CurrentUser() user: AuthUser,
    @Body() body: AuditRetentionDto,
  ): Promise<AuditRetentionDto> {
    return this.audit.setRetention(sessionScope(user), body.days);
  }
}
