import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  MemberCsvMapping,
  MemberImportCounts,
  MemberImportDryRun,
  MemberImportOutcome,
  MemberImportRowResult,
  MemberImportState,
  MemberImportStatus,
  MemberImportUpload,
} from '@grove/contracts';

/** Every `MemberImportOutcome`. */
const OUTCOMES = [
  'add',
  'update',
  'unchanged',
  'skipped',
  'error',
] as const satisfies readonly MemberImportOutcome[];

/** Every `MemberImportState`. */
const STATES = [
  'uploaded',
  'queued',
  'running',
  'done',
  'failed',
] as const satisfies readonly MemberImportState[];

/** A column of the file (0-based), or null for none. */
const column = (description: string) =>
  ApiProperty({ type: Number, nullable: true, minimum: 0, description });

/** Which file column (0-based) feeds each member field, null for none (`MemberCsvMapping`). */
@ApiSchema({ name: 'MemberCsvMapping' })
export class MemberCsvMappingDto implements MemberCsvMapping {
  @column('Full name (or first and last name, never both)')
  memberName!: number | null;

  @column('First name')
  firstName!: number | null;

  @column('Last name')
  lastName!: number | null;

  @column('Email')
  memberEmail!: number | null;

  @column('Membership price (dollars as written in the file)')
  membershipPrice!: number | null;

  @column('Discount per branch (dollars as written in the file)')
  discount!: number | null;

  @column("Referred by: the referrer's email or name (optional)")
  referredBy!: number | null;
}

/** How many rows have each outcome (`MemberImportCounts`). */
@ApiSchema({ name: 'MemberImportCounts' })
export class MemberImportCountsDto implements MemberImportCounts {
  @ApiProperty({ type: Number, description: 'New members' })
  add!: number;

  @ApiProperty({
    type: Number,
    description: 'Hand-added members with the same email key that change',
  })
  update!: number;

  @ApiProperty({ type: Number, description: 'Members that already have exactly these values' })
  unchanged!: number;

  @ApiProperty({ type: Number, description: 'Members managed by Mindbody, left as they are' })
  skipped!: number;

  @ApiProperty({ type: Number, description: 'Rows that break a rule; nothing of them is written' })
  error!: number;
}

/** One row of a dry run; `line` is its line number in the file (the header is line 1). */
@ApiSchema({ name: 'MemberImportRowResult' })
export class MemberImportRowResultDto implements MemberImportRowResult {
  @ApiProperty({ type: Number })
  line!: number;

  @ApiProperty({ type: String })
  memberName!: string;

  @ApiProperty({ type: String })
  memberEmail!: string;

  @ApiProperty({ enum: OUTCOMES, enumName: 'MemberImportOutcome' })
  outcome!: MemberImportOutcome;

  @ApiProperty({
    type: [String],
    description: 'The rule texts this row broke (or why it is skipped); empty otherwise',
  })
  messages!: string[];
}

/** `POST /api/members-csv/imports` → 201: the stored upload; nothing is imported yet. */
@ApiSchema({ name: 'MemberImportUpload' })
export class MemberImportUploadDto implements MemberImportUpload {
  @ApiProperty({ type: String })
  importId!: string;

  @ApiProperty({ type: [String], description: "The file's header row" })
  headers!: string[];

  @ApiProperty({ type: Number, description: 'Data rows (header excluded)' })
  rowCount!: number;

  @ApiProperty({ type: MemberCsvMappingDto, description: 'The guessed mapping' })
  mapping!: MemberCsvMappingDto;
}

/** `POST /api/members-csv/imports/:id/dry-run` → 200: every row's outcome; nothing is written. */
@ApiSchema({ name: 'MemberImportDryRun' })
export class MemberImportDryRunDto implements MemberImportDryRun {
  @ApiProperty({ type: MemberImportCountsDto })
  counts!: MemberImportCountsDto;

  @ApiProperty({ type: [MemberImportRowResultDto] })
  rows!: MemberImportRowResultDto[];
}

/** `GET /api/members-csv/imports/:id` (and `POST …/run` → 202): progress and, once done, counts. */
@ApiSchema({ name: 'MemberImportStatus' })
export class MemberImportStatusDto implements MemberImportStatus {
  @ApiProperty({ type: String })
  importId!: string;

  @ApiProperty({ enum: STATES, enumName: 'MemberImportState' })
  state!: MemberImportState;

  @ApiProperty({ type: Number, description: 'Data rows in the file' })
  totalRows!: number;

  @ApiProperty({
    type: Number,
    description: 'Rows handled so far (progress: processedRows / totalRows)',
  })
  processedRows!: number;

  @ApiProperty({
    type: MemberImportCountsDto,
    nullable: true,
    description: "Outcome counts once 'done'; null before",
  })
  counts!: MemberImportCountsDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Why the import failed ('failed' only)",
  })
  error!: string | null;
}
