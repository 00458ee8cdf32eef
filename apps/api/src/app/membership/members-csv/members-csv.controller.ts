import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Req,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { ImportMappingDto } from './dto/import-mapping.dto';
import {
  MemberImportDryRunDto,
  MemberImportStatusDto,
  MemberImportUploadDto,
} from './dto/member-import.dto';
import { MembersCsvService } from './members-csv.service';

/**
 * CSV in and out of the signed-in owner's members (issue 14 part 5; Branches screen). The
 * business always comes from the session; another business's upload answers 404. Errors: 400 bad
 * file or mapping, 401 no session, 404 unknown upload, 413 file over 5 MB, 415 not sent as CSV,
 * 429 over the upload limit.
 */
@ApiTags('members-csv')
@ApiCookieAuth('grove_access')
@Controller('members-csv')
export class MembersCsvController {
  constructor(private readonly csv: MembersCsvService) {}

  /**
   * → 200 text/csv, streamed: `MEMBER_EXPORT_HEADER` then one row per member (amounts with two
   * decimals in the row's 'Currency', formula cells neutralised), as the attachment
   * `grove-members-<YYYY-MM-DD>.csv`.
   */
  @Get('export')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Export every member as CSV' })
  @ApiOkResponse({ content: { 'text/csv': { schema: { type: 'string' } } } })
  export(@CurrentUser() user: AuthUser): StreamableFile {
    const day = new Date().toISOString().slice(0, 10);
    return new StreamableFile(this.csv.exportCsv(sessionScope(user)), {
      disposition: `attachment; filename="grove-members-${day}.csv"`,
    });
  }

  /**
   * Body: the CSV file itself (Content-Type text/csv, at most 5 MB, at most 10,000 rows after the
   * header, at most 200 columns, no row more than 5 cells wider than the header) → 201
   * `MemberImportUpload` (headers, row count, guessed mapping); nothing is imported. At most
   * THROTTLE_CSV_UPLOAD_LIMIT uploads per business per hour (10; then 429 'Too many attempts. Try
   * again in N minutes.').
   */
  @Post('imports')
  @ThrottledBy('csv-upload')
  @ApiConsumes('text/csv')
  @ApiOperation({ summary: 'Upload a CSV file of members (stored, not imported)' })
  @ApiBody({
    required: true,
    schema: { type: 'string', description: 'The CSV file (at most 5 MB)' },
  })
  @ApiCreatedResponse({ type: MemberImportUploadDto })
  upload(@CurrentUser() user: AuthUser, @Req() request: Request): Promise<MemberImportUploadDto> {
    return this.csv.upload(sessionScope(user), request);
  }

  /**
   * Body `{ mapping, discountForEveryRow?, locale? }` → 200 `MemberImportDryRun`: every row's
   * outcome; writes no member (the upload keeps the settings for its failed-rows file). Without a
   * discount column or `discountForEveryRow`, the business's default discount per referral is every
   * row's (docs/product.md#member-defaults); without that either, 400 (mapping incomplete).
   */
  @Post('imports/:id/dry-run')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'What importing the upload would do, row by row (writes nothing)' })
  @ApiOkResponse({ type: MemberImportDryRunDto })
  dryRun(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: ImportMappingDto,
  ): Promise<MemberImportDryRunDto> {
    return this.csv.dryRun(sessionScope(user), id, body);
  }

  /**
   * Body `{ mapping, discountForEveryRow?, locale? }` → 202 `MemberImportStatus`: the good rows are
   * imported in the background.
   */
  @Post('imports/:id/run')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Import the good rows of the upload (a background job)' })
  @ApiAcceptedResponse({ type: MemberImportStatusDto })
  run(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: ImportMappingDto,
  ): Promise<MemberImportStatusDto> {
    return this.csv.run(sessionScope(user), id, body);
  }

  /**
   * → 200 text/csv (UTF-8 with a byte-order mark), streamed, the attachment
   * `grove-failed-rows.csv`: the upload's header and every row that failed its last dry run (or,
   * once run, that is still not imported), each as wide as the header plus 'Line' and 'Reason'.
   * 404 unknown upload, 409 before any dry run.
   */
  @Get('imports/:id/failed-rows')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The rows of an upload that fail, with the reason, as CSV' })
  @ApiOkResponse({ content: { 'text/csv': { schema: { type: 'string' } } } })
  async failedRows(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<StreamableFile> {
    const csv = await this.csv.failedRowsCsv(sessionScope(user), id);
    // Typed here, not by @Header: an error reply stays JSON.
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="grove-failed-rows.csv"',
    });
  }

  /** → 200 `MemberImportStatus` (progress: processedRows of totalRows; counts once done). */
  @Get('imports/:id')
  @ApiOperation({ summary: 'Progress of an import' })
  @ApiOkResponse({ type: MemberImportStatusDto })
  status(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<MemberImportStatusDto> {
    return this.csv.status(sessionScope(user), id);
  }
}
