import { HttpStatus } from '@nestjs/common';
import {
  DATA_EXPORT_NOT_READY_MESSAGE,
  DATA_EXPORT_RUNNING_MESSAGE,
  dataExportLimitMessage,
} from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** An export of the business is already queued or running. → 409 */
export class DataExportRunningException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(DATA_EXPORT_RUNNING_MESSAGE);
  }
}

/** The business started DATA_EXPORT_DAILY_LIMIT exports in the last 24 hours. → 429 */
export class DataExportLimitException extends GroveException {
  override readonly status = HttpStatus.TOO_MANY_REQUESTS;

  constructor(limit: number) {
    super(dataExportLimitMessage(limit));
  }
}

/** No such export of the business, or it is not finished, or its file expired. → 404 */
export class DataExportNotReadyException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(DATA_EXPORT_NOT_READY_MESSAGE);
  }
}
