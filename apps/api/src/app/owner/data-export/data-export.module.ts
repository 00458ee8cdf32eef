import { Module } from '@nestjs/common';
import { DataExportController } from './data-export.controller';
import { DataExportRepository } from './data-export.repository';
import { DataExportService } from './data-export.service';

/** Export everything of a business (issue 34 item 6, docs/product.md#data-rights). */
@Module({
  controllers: [DataExportController],
  providers: [DataExportService, DataExportRepository],
})
export class DataExportModule {}
