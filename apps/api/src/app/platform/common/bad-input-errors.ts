import { HttpStatus } from '@nestjs/common';
import type { ApiErrorBody } from '@grove/contracts';
import { errorCode } from '../database/database-faults';

/**
 * What body-parser (Express's JSON / urlencoded parsers, as Nest installs them) attaches to its
 * errors (http-errors: `status`, `expose` true for a 4xx). `type` names the failure; a body that
 * does not inflate (Content-Encoding gzip on plain bytes) has none.
 */
interface BodyParserError {
  type?: string;
  status: number;
  expose: true;
  /** entity.too.large: the limit in bytes. */
  limit?: number;
  /** charset.unsupported: the charset the client sent. */
  charset?: string;
  /** encoding.unsupported: the Content-Encoding the client sent. */
  encoding?: string;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  const candidate = error as Partial<BodyParserError> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.expose === true &&
    typeof candidate.status === 'number' &&
    candidate.status >= 400 &&
    candidate.status < 500
  );
}

/** `102400` → `100 KB` (binary kilobytes, as body-parser's `'100kb'` limit means). */
function formatBytes(bytes: number): string {
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

/**
 * The reply to a body the parser refused, by body-parser's error `type` (body-parser 2 README,
 * "Errors"). Malformed JSON (a SyntaxError, status 400) never gets here: Nest's own error handler
 * turns it into a 400 BadRequestException with the parser's message.
 */
function bodyParserReply(error: BodyParserError): ApiErrorBody {
  switch (error.type) {
    case 'entity.too.large':
      return {
        statusCode: HttpStatus.PAYLOAD_TOO_LARGE,
        message: `The request body is larger than the limit of ${formatBytes(error.limit ?? 0)}`,
      };
    case 'parameters.too.many':
      return {
        statusCode: HttpStatus.PAYLOAD_TOO_LARGE,
        message: 'The request body has too many parameters',
      };
    case 'charset.unsupported':
      return {
        statusCode: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        message: `Unsupported charset "${String(error.charset ?? '').toUpperCase()}": send the body as UTF-8`,
      };
    case 'encoding.unsupported':
      return {
        statusCode: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        message: `Unsupported content encoding "${String(error.encoding ?? '')}": send gzip, deflate, br or none`,
      };
    default:
      // a body that does not inflate, request.aborted, request.size.invalid,
      // querystring.parse.rangeError and what later versions add
      return { statusCode: error.status, message: 'The request body could not be read' };
  }
}

/** SQLSTATE class 22 "data exception" (PostgreSQL Appendix A): 22001 too long, 22003 out of range, 22021 NUL byte, 22P02 bad text… */
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

/**
 * The 4xx reply for a request the API could not take as sent, or `undefined` for anything else:
 * - body-parser's errors: a body over the parser's limit → 413 'The request body is larger than the
 *   limit of 100 KB'; an unsupported charset or Content-Encoding → 415; any other 4xx of the parser
 *   (such as a gzip body that does not inflate) keeps its status with 'The request body could not be
 *   read' (malformed JSON is already a 400 from Nest);
 * - a PostgreSQL data exception (SQLSTATE class 22: a value the column cannot hold, such as a NUL
 *   character or a number out of range) → 400 'The request holds a value that cannot be stored'.
 *   The field rules should refuse such values first; this keeps one that slips past a 400.
 * Used by `ApiExceptionFilter` before it answers 500.
 */
export function badInputReply(exception: unknown): ApiErrorBody | undefined {
  if (isBodyParserError(exception)) return bodyParserReply(exception);
  const state = errorCode(exception);
  if (state && DATA_EXCEPTION.test(state)) {
    return {
      statusCode: HttpStatus.BAD_REQUEST,
      message: 'The request holds a value that cannot be stored',
    };
  }
  return undefined;
}
