import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { parse, type Parser } from 'csv-parse';
import { CSV_IMPORT_LIMITS, MEMBER_CSV_MESSAGES } from '@grove/contracts';
import { errorMessage } from '../../platform/common/error-message';
import { GroveException } from '../../platform/common/grove.exception';
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

/** What an upload's parse answers once every row was handed on: its header, trimmed, and how many data rows. */
export interface CsvUploadSummary {
  headers: string[];
  rowCount: number;
}

/** Takes one data row (every cell a string, as wide as the file has it) and its file line (1-based). */
export type CsvRowSink = (cells: string[], line: number) => void | Promise<void>;

/** The request as the reader needs it (an Express request is one). */
export interface CsvUploadRequest extends Readable {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The Content-Type and declared length of a CSV upload, checked before any byte is read.
 * @throws NotCsvException 415 when the Content-Type is not a CSV one
 * @throws CsvTooLargeException 413 when Content-Length is over `CSV_IMPORT_LIMITS.bytes`
 */
function checkUploadHeaders(request: CsvUploadRequest): void {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (!type || !CSV_TYPES.has(type)) throw new NotCsvException();
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > CSV_IMPORT_LIMITS.bytes)
    throw new CsvTooLargeException();
}

/**
 * The request body as UTF-8 text, chunk by chunk as it arrives, within `CSV_IMPORT_LIMITS.bytes`
 * (the body is read here, not by the API's JSON parser, whose limit stays 100 KB). A UTF-8
 * byte-order mark is dropped (TextDecoder's default).
 * @throws CsvTooLargeException 413 once more bytes than the limit arrived
 * @throws BadCsvFileException 400 'The file could not be read as CSV' for bytes that are not UTF-8
 *   or a NUL (valid UTF-8 but never in a spreadsheet's text: a binary file)
 */
async function* decodeUpload(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  const decode = (bytes?: Buffer): string => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw new BadCsvFileException(MEMBER_CSV_MESSAGES.unreadable);
    }
  };
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > CSV_IMPORT_LIMITS.bytes) throw new CsvTooLargeException();
    const text = decode(chunk);
    if (text.includes('\u0000')) throw new BadCsvFileException(MEMBER_CSV_MESSAGES.unreadable);
    if (text) yield text;
  }
  const rest = decode();
  if (rest) yield rest;
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
 * the header (the first line with something on it) may have at most `CSV_IMPORT_LIMITS.columns`
 * cells, and every later row at most `CSV_IMPORT_LIMITS.extraCells` more than the header. It
 * counts `delimiter`s outside quotes (RFC 4180: a quote opens or closes a quoted field, a doubled
 * one inside it is a quote) in the text as it arrives (`feed`, piece by piece, its state kept
 * between pieces), stopping at the first row over the limit; so a row of millions of empty cells
 * costs no memory and little time.
 */
export class CsvWidthCheck {
  private readonly separator: number;
  private quoted = false;
  private line = 1;
  private cells = 1;
  private content = false;
  private headerCells = 0;
  private rowLine = 1;
  private afterCarriageReturn = false;

  constructor(delimiter: string) {
    this.separator = delimiter.charCodeAt(0);
  }

  /**
   * @throws BadCsvFileException 400 `tooManyColumns` for a wide header, `rowTooWide(line, columns)`
   *   for a wide data row (its line in the file, 1-based)
   */
  feed(text: string): void {
    for (let index = 0; index < text.length; index++) {
      const char = text.charCodeAt(index);
      // CR LF is one line break, also when a piece ends between them.
      const joined = char === LINE_FEED && this.afterCarriageReturn;
      this.afterCarriageReturn = char === CARRIAGE_RETURN;
      if (joined) continue;
      if (char === QUOTE) {
        this.quoted = !this.quoted;
        this.content = true;
      } else if (char === LINE_FEED || char === CARRIAGE_RETURN) {
        this.line++;
        if (!this.quoted) {
          this.endRow();
          this.rowLine = this.line;
        }
      } else if (char === this.separator && !this.quoted) {
        this.cells++;
        const limit =
          this.headerCells === 0
            ? CSV_IMPORT_LIMITS.columns
            : this.headerCells + CSV_IMPORT_LIMITS.extraCells;
        if (this.cells > limit) {
          if (this.headerCells === 0)
            throw new BadCsvFileException(MEMBER_CSV_MESSAGES.tooManyColumns);
          throw new BadCsvFileException(
            MEMBER_CSV_MESSAGES.rowTooWide(this.rowLine, this.headerCells),
          );
        }
      } else if (char !== 0x20 && char !== 0x09) this.content = true;
    }
  }

  private endRow(): void {
    if (this.content && this.headerCells === 0) this.headerCells = this.cells;
    this.cells = 1;
    this.content = false;
  }
}

/** Text handed to the parser at a time (characters): one piece is parsed in a few milliseconds. */
const PIECE_CHARS = 4 * 1024;

/**
 * `text` in pieces of at most `PIECE_CHARS` (never splitting a surrogate pair, which csv-parse
 * would turn into two replacement characters), each checked by `width` and handed on only after
 * the event loop has had a turn: parsing a 5 MB file of 200 columns takes csv-parse seconds of CPU
 * (docs/decisions/csv-upload-streamed.md), which would otherwise hold every other request.
 */
async function* checkedPieces(
  text: AsyncIterable<string>,
  width: CsvWidthCheck,
): AsyncGenerator<string> {
  for await (const chunk of text) {
    for (let start = 0; start < chunk.length;) {
      let end = Math.min(start + PIECE_CHARS, chunk.length);
      const last = chunk.charCodeAt(end - 1);
      if (end < chunk.length && last >= 0xd800 && last <= 0xdbff) end++;
      const piece = chunk.slice(start, end);
      start = end;
      width.feed(piece);
      yield piece;
      await setImmediate();
    }
  }
}

/**
 * The text up to the end of the header line (the first line with something on it) or at least
 * `CSV_IMPORT_LIMITS.rowChars` characters of it, to find the separator; the rest of `text` is
 * still to be read from the same iterator.
 */
async function readHead(text: AsyncIterator<string>): Promise<string> {
  let head = '';
  const ended = () => {
    const content = head.search(/\S/);
    return content >= 0 && /[\n\r]/.test(head.slice(content));
  };
  while (head.length <= CSV_IMPORT_LIMITS.rowChars && !ended()) {
    const next = await text.next();
    if (next.done) break;
    head += next.value;
  }
  return head;
}

/** One record from csv-parse's stream with `info: true`. */
interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Reads a CSV upload as it arrives and hands each data row to `sink`, never holding the file:
 * parsed by csv-parse's stream API (RFC 4180: quoted fields, embedded commas, quotes and line
 * breaks; a UTF-8 byte-order mark is dropped; rows may have fewer or more cells than the header),
 * cells separated by ',', ';' or tab (`sniffDelimiter` on the header line). Blank rows are not
 * rows: an empty line (also a trailing one) and a row whose every cell is empty or white space
 * (',,,' from a spreadsheet) are skipped, so line numbers may jump (docs/product.md#members-csv).
 * The first row left is the header. Every limit is `CSV_IMPORT_LIMITS` (libs/shared/contracts):
 * bytes, columns, cells past the header, characters a row, rows and cells in all; the first one
 * passed refuses the file at once, the rest of the body is read and dropped.
 * @throws NotCsvException 415 when the Content-Type is not a CSV one
 * @throws CsvTooLargeException 413 when the body (by Content-Length or as read) is over 5 MB
 * @throws BadCsvFileException 400 when the bytes are not UTF-8 text (a binary file: 'The file could
 *   not be read as CSV'), a row is too wide (`CsvWidthCheck`), the parser refuses it (a row over
 *   `CSV_IMPORT_LIMITS.rowChars` characters too) (its reason and line are added), there is no data
 *   row ('The file has no rows to import'), more than `CSV_IMPORT_LIMITS.rows` rows or more than
 *   `CSV_IMPORT_LIMITS.cells` cells
 */
export async function readCsvUpload(
  request: CsvUploadRequest,
  sink: CsvRowSink,
): Promise<CsvUploadSummary> {
  let parser: Parser | undefined;
  try {
    checkUploadHeaders(request);
    // Not destroyed when the reading stops early: the reply still goes out on its socket.
    const text = decodeUpload(request.iterator({ destroyOnReturn: false }));
    const head = await readHead(text);
    const delimiter = sniffDelimiter(head);
    parser = parse({
      bom: true,
      delimiter,
      max_record_size: CSV_IMPORT_LIMITS.rowChars,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    });
    const rows = new CsvRows(sink);
    // Flowing: a piece written is parsed at once, its records handed over as it is written.
    const parsed: ParsedRecord[] = [];
    parser.on('data', (record: ParsedRecord) => parsed.push(record));
    const ended = finished(parser);
    ended.catch(() => undefined);
    const take = async () => {
      for (const record of parsed.splice(0)) await rows.take(record);
    };
    const pieces = checkedPieces(
      (async function* () {
        if (head) yield head;
        yield* text;
      })(),
      new CsvWidthCheck(delimiter),
    );
    // One piece a turn of the event loop, its rows handed on before the next is parsed.
    for await (const piece of pieces) {
      parser.write(piece);
      if (parser.errored) await ended;
      await take();
    }
    parser.end();
    await ended;
    await take();
    return rows.summary();
  } catch (error) {
    parser?.destroy();
    // The rest of the body is read and dropped, so the reply reaches the client.
    request.resume();
    if (error instanceof GroveException) throw error;
    throw new BadCsvFileException(`${MEMBER_CSV_MESSAGES.unreadable}: ${errorMessage(error)}`);
  }
}

/**
 * The records csv-parse gives, as an upload counts them: blank ones skipped, the first left is the
 * header, every later one a data row handed to the sink within `CSV_IMPORT_LIMITS.rows` and
 * `CSV_IMPORT_LIMITS.cells`.
 */
class CsvRows {
  private headers: string[] | null = null;
  private rowCount = 0;
  private cells = 0;

  constructor(private readonly sink: CsvRowSink) {}

  /** @throws BadCsvFileException 400 `tooManyRows`, `tooManyCells` */
  async take({ record, info }: ParsedRecord): Promise<void> {
    // A row of empty cells (',,,' from a spreadsheet) is a blank line too.
    if (!record.some((value) => value.trim())) return;
    if (!this.headers) {
      this.headers = record.map((cell) => cell.trim());
      return;
    }
    if (++this.rowCount > CSV_IMPORT_LIMITS.rows)
      throw new BadCsvFileException(MEMBER_CSV_MESSAGES.tooManyRows);
    this.cells += record.length;
    if (this.cells > CSV_IMPORT_LIMITS.cells)
      throw new BadCsvFileException(MEMBER_CSV_MESSAGES.tooManyCells);
    await this.sink(record, info.lines);
  }

  /** @throws BadCsvFileException 400 `empty` without a header and a data row */
  summary(): CsvUploadSummary {
    if (!this.headers || this.rowCount === 0)
      throw new BadCsvFileException(MEMBER_CSV_MESSAGES.empty);
    return { headers: this.headers, rowCount: this.rowCount };
  }
}
