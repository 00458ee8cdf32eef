import { Controller, Get, HttpCode, HttpStatus, Param, Post, StreamableFile } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { DataExportDto, DataExportListDto } from './dto/data-export.dto';
import { DataExportService } from './data-export.service';

/**
 * Export everything of the signed-in owner's business (issue 34 item 6,
 * docs/product.md#data-rights): start, poll, download. Owners only (the role table); the business
 * always comes from the session, so another business's export answers 404.
 */
@ApiTags('data-exports')
@ApiCookieAuth('grove_access')
@Controller('data-exports')
export class DataExportController {
  constructor(private readonly exports: DataExportService) {}

  /**
   * → 202 `DataExport` (state 'queued'): the ZIP is built in the background. 409 while another
   * export is queued or running; 429 past DATA_EXPORT_DAILY_LIMIT exports in 24 hours.
   */
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    summary: 'Export everything of the business (a ZIP of CSV files, in the background)',
  })
  @ApiAcceptedResponse({ type: DataExportDto })
  start(@CurrentUser() user: AuthUser): Promise<DataExportDto> {
    return this.exports.start(sessionScope(user), user.userId);
  }

  /** → 200 `DataExportList`: the latest 5 exports, newest first. */
  @Get()
  @ApiOperation({ summary: "The business's latest exports" })
  @ApiOkResponse({ type: DataExportListDto })
  list(@CurrentUser() user: AuthUser): Promise<DataExportListDto> {
    return this.exports.list(sessionScope(user));
  }

  /** → 200 `DataExport` (progress: doneSteps of totalSteps); 404 unknown. */
  @Get(':id')
  @ApiOperation({ summary: 'Where an export stands' })
  @ApiOkResponse({ type: DataExportDto })
  status(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<DataExportDto> {
    return this.exports.status(sessionScope(user), id);
  }

  /**
   * → 200 application/zip, streamed, the attachment `grove-export-<YYYY-MM-DD>.zip`; 404 unknown,
   * not finished or expired.
   */
  @Get(':id/download')
  @ApiOperation({ summary: 'Download a finished export (ZIP)' })
  @ApiOkResponse({
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  async download(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<StreamableFile> {
    const { stream, size } = await this.exports.download(sessionScope(user), id);
    const day = new Date().toISOString().slice(0, 10);
    return new StreamableFile(stream, {
      type: 'application/zip',
      length: size,
      disposition: `attachment; filename="grove-export-${day}.zip"`,
    });
  }
}
