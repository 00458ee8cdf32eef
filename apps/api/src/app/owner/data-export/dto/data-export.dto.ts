import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DATA_EXPORT_STATES, type DataExportState } from '@grove/contracts';

/** One export of the business's data (issue 34 item 6, docs/product.md#data-rights). */
@ApiSchema({ name: 'DataExport' })
export class DataExportDto {
  @ApiProperty({ type: String, format: 'uuid' })
  id!: string;

  @ApiProperty({
    enum: DATA_EXPORT_STATES,
    enumName: 'DataExportState',
    description: "'expired': done, but its file is deleted (DATA_EXPORT_EXPIRY_HOURS)",
  })
  state!: DataExportState;

  @ApiProperty({ type: Number, description: 'Files written so far (progress)' })
  doneSteps!: number;

  @ApiProperty({ type: Number, description: 'Files to write in all (README.txt included)' })
  totalSteps!: number;

  @ApiProperty({ type: Number, description: 'Size of the ZIP, bytes (0 until done)' })
  sizeBytes!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed (state failed)' })
  error!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the file stops being downloadable (state done)',
  })
  expiresAt!: string | null;
}

/** The business's latest exports, newest first (at most 5). */
@ApiSchema({ name: 'DataExportList' })
export class DataExportListDto {
  @ApiProperty({ type: [DataExportDto] })
  exports!: DataExportDto[];
}
