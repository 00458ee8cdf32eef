import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import {
  CSV_IMPORT_EXTRA_CELLS,
  CSV_IMPORT_MAX_BYTES,
  CSV_IMPORT_MAX_COLUMNS,
  CSV_IMPORT_MAX_ROW_CHARS,
  CSV_IMPORT_MAX_ROWS,
  MEMBER_CSV_MESSAGES,
} from '@grove/contracts';
import { errorMessage } from '../../platform/common/error-message';
import {
  BadCsvFileException,
  CsvTooLargeException,
  NotCsvException,
} from './members-csv.exceptions';

/**
 * Content types a CSV upload may carry: text/csv (RFC 7111), text/plain, and the types browsers
 * give a .csv file on Windows (application/vnd.ms-excel) and some Linux desktops.
 */
const CSV_TYPES = new Set([
  'text/csv',
  'text/plain',
  'application/csv',
  'text/x-csv',
  'application/vnd.ms-excel',
]);

/** A parsed CSV upload: its header row and its data rows, every cell a string. */
export interface ParsedCsv {
  headers: string[];
  rows: string[][];
  /** The file line of each data row (1-based; blank lines are skipped, so they may jump). */
  lines: number[];
}

/** The request as the reader needs it (an Express request is one). */
export interface CsvUploadRequest extends Readable {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Reads a CSV upload from the raw request body, within `CSV_IMPORT_MAX_BYTES` (the body is read
 * here, not by the API's JSON parser, whose limit stays 100 KB).
 * @throws NotCsvException 415 when the Content-Type is not a CSV one
 * @throws CsvTooLargeException 413 when the body (by Content-Length or as read) is over 5 MB
 */
export async function readCsvUpload(request: CsvUploadRequest): Promise<Buffer> {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (!type || !CSV_TYPES.has(type)) {
    request.resume();
    throw new NotCsvException();
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > CSV_IMPORT_MAX_BYTES) {
    request.resume();
    throw new CsvTooLargeException();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > CSV_IMPORT_MAX_BYTES) {
      request.resume();
      throw new CsvTooLargeException();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Separators a spreadsheet writes between cells: ',' (also Excel en-*), ';' (Excel de, fr, …) and tab. */
const DELIMITERS = [',', ';', '\t'] as const;

/**
 * The cell separator of a file: the one of `DELIMITERS` found most often outside quotes in its
 * header line (',' on a tie or when there is none). Excel writes ';' where the decimal separator
 * is a comma ("Vorname;Nachname;Preis" with "59,00 €").
 */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  let content = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) {
      // The header is the first line with something on it.
      if (content) break;
    } else if (!quoted && (DELIMITERS as readonly string[]).includes(char))
      counts.set(char, (counts.get(char) ?? 0) + 1);
    content ||= char.trim() !== '';
  }
  let best = ',';
  for (const delimiter of DELIMITERS) {
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
}

const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Refuses a file whose rows are wider than Grove reads, before csv-parse builds a single row:
 * the header (the first line with something on it) may have at most `CSV_IMPORT_MAX_COLUMNS`
 * cells, and every later row at most `CSV_IMPORT_EXTRA_CELLS` more than the header. One pass over
 * the text counting `delimiter`s outside quotes (RFC 4180: a quote opens or closes a quoted field,
 * a doubled one inside it is a quote), stopping at the first row over the limit; so a row of
 * millions of empty cells costs no memory and little time.
 * @throws BadCsvFileException 400 `tooManyColumns` for a wide header, `rowTooWide(line, columns)`
 *   for a wide data row (its line in the file, 1-based)
 */
export function checkCsvWidth(text: string, delimiter: string): void {
  const separator = delimiter.charCodeAt(0);
  let quoted = false;
  let line = 1;
  let cells = 1;
  let content = false;
  let headerCells = 0;
  let rowLine = 1;
  // The separator count below already refused a header over CSV_IMPORT_MAX_COLUMNS.
  const endRow = () => {
    if (content && headerCells === 0) headerCells = cells;
    cells = 1;
    content = false;
  };
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      quoted = !quoted;
      content = true;
    } else if (char === LINE_FEED || char === CARRIAGE_RETURN) {
      if (char === CARRIAGE_RETURN && text.charCodeAt(index + 1) === LINE_FEED) index++;
      line++;
      if (!quoted) {
        endRow();
        rowLine = line;
      }
    } else if (char === separator && !quoted) {
      cells++;
      const limit =
        headerCells === 0 ? CSV_IMPORT_MAX_COLUMNS : headerCells + CSV_IMPORT_EXTRA_CELLS;
      if (cells > limit) {
        if (headerCells === 0) throw new BadCsvFileException(MEMBER_CSV_MESSAGES.tooManyColumns);
        throw new BadCsvFileException(MEMBER_CSV_MESSAGES.rowTooWide(rowLine, headerCells));
      }
    } else if (char !== 0x20 && char !== 0x09) content = true;
  }
  endRow();
}

/**
 * Parses a CSV file with csv-parse (RFC 4180: quoted fields, embedded commas, quotes and line
 * breaks; a UTF-8 byte-order mark is dropped; rows may have fewer or more cells than the header),
 * cells separated by ',', ';' or tab (`sniffDelimiter`). Blank rows are not rows: an empty line
 * (also a trailing one) and a row whose every cell is empty or white space (',,,' from a
 * spreadsheet) are skipped, so line numbers may jump (docs/product.md#members-csv). The first row
 * left is the header.
 * @throws BadCsvFileException 400 when the bytes are not UTF-8 text (a binary file: 'The file could
 *   not be read as CSV'), a row is too wide (`checkCsvWidth`), the parser refuses it (a row over
 *   `CSV_IMPORT_MAX_ROW_CHARS` characters too) (its reason and line are added), there is no data
 *   row ('The file has no rows to import') or more than `CSV_IMPORT_MAX_ROWS` rows
 */
export function parseCsv(bytes: Buffer): ParsedCsv {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BadCsvFileException(MEMBER_CSV_MESSAGES.unreadable);
  }
  // A NUL byte is valid UTF-8 but never in a spreadsheet's text: a binary file.
  if (text.includes('\u0000')) throw new BadCsvFileException(MEMBER_CSV_MESSAGES.unreadable);
  const delimiter = sniffDelimiter(text);
  checkCsvWidth(text, delimiter);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      max_record_size: CSV_IMPORT_MAX_ROW_CHARS,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      // One row past the limit is enough to refuse the file.
      to: CSV_IMPORT_MAX_ROWS + 2,
    }) as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    throw new BadCsvFileException(`${MEMBER_CSV_MESSAGES.unreadable}: ${errorMessage(error)}`);
  }
  // A row of empty cells (',,,' from a spreadsheet) is a blank line too.
  const [header, ...data] = records.filter(({ record }) => record.some((value) => value.trim()));
  if (!header || data.length === 0) throw new BadCsvFileException(MEMBER_CSV_MESSAGES.empty);
  if (data.length > CSV_IMPORT_MAX_ROWS)
    throw new BadCsvFileException(MEMBER_CSV_MESSAGES.tooManyRows);
  return {
    headers: header.record.map((cell) => cell.trim()),
    rows: data.map(({ record }) => record),
    lines: data.map(({ info }) => info.lines),
  };
}
