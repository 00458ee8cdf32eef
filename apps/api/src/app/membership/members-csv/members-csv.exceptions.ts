import { HttpStatus } from '@nestjs/common';
import { MEMBER_CSV_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** The upload is not sent as CSV (Content-Type other than text/csv, text/plain or Excel's CSV type). → 415 */
export class NotCsvException extends GroveException {
  override readonly status = HttpStatus.UNSUPPORTED_MEDIA_TYPE;

  constructor() {
    super(MEMBER_CSV_MESSAGES.notCsv);
  }
}

/** The upload is over `CSV_IMPORT_MAX_BYTES` (5 MB). → 413 */
export class CsvTooLargeException extends GroveException {
  override readonly status = HttpStatus.PAYLOAD_TOO_LARGE;

  constructor() {
    super(MEMBER_CSV_MESSAGES.tooLarge);
  }
}

/**
 * The file cannot be imported as it is: not UTF-8 text, not parseable as CSV (the parser's reason
 * and line are added), no data rows, or more than `CSV_IMPORT_MAX_ROWS` rows. → 400
 */
export class BadCsvFileException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;
}

/** The mapping leaves a required field without a column, or names a column the file lacks. → 400 */
export class BadCsvMappingException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;
}

/** No upload with this id in the session's business (other businesses' look absent). → 404 */
export class ImportNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(MEMBER_CSV_MESSAGES.importNotFound);
  }
}

/** The failed rows of an upload were asked for before any dry run said which they are. → 409 */
export class ImportNotCheckedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(MEMBER_CSV_MESSAGES.notChecked);
  }
}
