/**
 * Members in and out of Grove as CSV (issue 14 part 5: Export and Import on the Branches screen).
 * The column set, the mapping guess, the per-row outcomes and the limits live here once, for the
 * API (which parses, checks and writes) and the dashboard (which shows the mapping and dry run).
 * Row rules and their texts are the add-member form's (`validateMemberInput`,
 * docs/product.md#validation); amounts may be written as owners type them in a spreadsheet
 * (`parseMoneyToCents`: "$1,059.00", "59,00 €"). What the import reads is docs/product.md#members-csv.
 */
import { MESSAGES } from '../common/messages';

/** Largest upload the import accepts, in bytes (5 MB; the API's JSON limit stays 100 KB). */
export const CSV_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Most data rows (after the header) one import takes in one go. */
export const CSV_IMPORT_MAX_ROWS = 10_000;
/**
 * Most columns a file's header may have (a gym system's member export has a few dozen): a wider
 * file is refused before it is parsed (issue 31: a 2.6-million-column header held the API).
 */
export const CSV_IMPORT_MAX_COLUMNS = 200;
/**
 * Cells a data row may have beyond the header's width (a trailing separator or two that a
 * spreadsheet left); a wider row refuses the file before it is parsed (issue 31: one row of five
 * million empty cells exhausted the API's heap).
 */
export const CSV_IMPORT_EXTRA_CELLS = 5;
/** Most characters one row may hold (every cell together); csv-parse refuses a longer one. */
export const CSV_IMPORT_MAX_ROW_CHARS = 20_000;
/**
 * Most cells the data rows may hold together (10,000 rows of 100 cells): what a dry run holds in
 * memory, whatever mix of rows and columns the file has (issue 31).
 */
export const CSV_IMPORT_MAX_CELLS = 1_000_000;

/**
 * Every limit of a CSV upload in one place, as the API's streaming parser applies them
 * (`readCsvUpload`); the first one a file passes refuses it with its message (docs/product.md#members-csv).
 */
export const CSV_IMPORT_LIMITS = {
  /** Bytes of the request body. */
  bytes: CSV_IMPORT_MAX_BYTES,
  /** Data rows (after the header; blank rows are not counted). */
  rows: CSV_IMPORT_MAX_ROWS,
  /** Cells of the header row. */
  columns: CSV_IMPORT_MAX_COLUMNS,
  /** Cells a data row may have beyond the header's. */
  extraCells: CSV_IMPORT_EXTRA_CELLS,
  /** Characters of one row, every cell together. */
  rowChars: CSV_IMPORT_MAX_ROW_CHARS,
  /** Cells of all data rows together. */
  cells: CSV_IMPORT_MAX_CELLS,
} as const;

/**
 * The member fields an import fills, in the order the mapping shows them. The member's name comes
 * from one column ('memberName', a full name) or from 'firstName' and 'lastName' joined by a space
 * ("Siobhán" + "O'Brien" → "Siobhán O'Brien"), never both; 'referredBy' holds the referrer's
 * email or name (docs/product.md#members-csv).
 */
export const MEMBER_CSV_FIELDS = [
  'memberName',
  'firstName',
  'lastName',
  'memberEmail',
  'membershipPrice',
  'discount',
  'referredBy',
] as const;
export type MemberCsvField = (typeof MEMBER_CSV_FIELDS)[number];

/**
 * What an import cannot do without (the add-member form requires them all): a name (a full-name
 * column, or a first and/or last name column), email and membership price columns, and a discount
 * column or one discount for every row (`MemberImportSettings.discountForEveryRow`).
 */
export const REQUIRED_MEMBER_CSV_FIELDS: readonly MemberCsvField[] = [
  'memberName',
  'memberEmail',
  'membershipPrice',
  'discount',
];

/** What each field is called on screen (mapping labels). */
export const MEMBER_CSV_FIELD_LABELS: Record<MemberCsvField, string> = {
  memberName: 'Full name',
  firstName: 'First name',
  lastName: 'Last name',
  memberEmail: 'Email',
  membershipPrice: 'Membership price (dollars)',
  discount: 'Discount per branch (dollars)',
  referredBy: 'Referred by: email or name (optional)',
};

/**
 * Which file column (0-based index) feeds each field; null = no column. An import needs the
 * `REQUIRED_MEMBER_CSV_FIELDS` (`missingMemberCsvFields`).
 */
export type MemberCsvMapping = Record<MemberCsvField, number | null>;

/**
 * How an upload is read, as the dry run and the run are asked (`MemberImportMappingRequest`) and
 * as the upload keeps it for its failed-rows file.
 */
export interface MemberImportSettings {
  mapping: MemberCsvMapping;
  /**
   * One discount per branch for every row, as typed ("5", "$5.00", "5,00 €"), when no column feeds
   * the discount; null or absent otherwise (with a discount column it must be absent).
   */
  discountForEveryRow?: string | null;
  /**
   * The locale the file's amounts are written in (BCP 47, e.g. 'en-US', 'de-DE'): it decides only
   * whether "1,059" is 1059 or 1.059 (`parseMoneyToCents`). Absent or unknown: en-AU.
   */
  locale?: string | null;
  /**
   * True: also add the rows whose email belongs to a member erased on request (the owner
   * confirmed, docs/product.md#data-rights); otherwise each such row is an error.
   */
  importErased?: boolean;
}

/** An empty mapping: no column for any field. */
export function emptyMemberCsvMapping(): MemberCsvMapping {
  return Object.fromEntries(MEMBER_CSV_FIELDS.map((field) => [field, null])) as MemberCsvMapping;
}

/**
 * The export's header row, in column order. Amounts have two decimals, in the row's 'Currency'
 * (ISO 4217: the business's, or the subscription's for a member billed on the business's Stripe,
 * e.g. 'EUR' in an Australian business; issue 32), so the amount headers name no currency; an
 * exported file imports back as it is: the import's guess maps these names ('Currency' feeds no
 * field).
 * 'Billing' is who manages the member's bill: 'Mindbody', 'Stripe' (billed on the business's
 * Stripe, issue 32) or empty (kept in Grove by hand); it is not imported.
 * 'Status' is the Branches screen's ('Active', 'Pending', 'Ended', 'Suspended'); 'Join date' is
 * the day the member was added to Grove (YYYY-MM-DD, UTC).
 */
export const MEMBER_EXPORT_HEADER = [
  'Name',
  'Email',
  'Branches',
  'Membership price',
  'Discount per branch',
  'New price',
  'Currency',
  'Referral link',
  "Referrer's email",
  'Billing',
  'Status',
  'Join date',
] as const;

/**
 * The import template's header row (the dialog's 'Download a template'): every column the import
 * reads, named so that `guessMemberCsvMapping` maps each one.
 */
export const MEMBER_IMPORT_TEMPLATE_HEADER = [
  'First name',
  'Last name',
  'Email',
  'Membership price',
  'Discount per referral',
  'Referred by',
] as const;

/** The header of the failed-rows file's two added columns (after the file's own columns). */
export const MEMBER_FAILED_ROWS_COLUMNS = ['Line', 'Reason'] as const;

/**
 * Words in a header that point at a field, checked after lower-casing and dropping non-letters, in
 * this order (most specific first: a referrer's email is not the member's email, a first name is
 * not a full name).
 */
const FIELD_HINTS: [MemberCsvField, RegExp][] = [
  ['referredBy', /referrer|referred|invitedby|introducedby/],
  ['memberEmail', /email|mail/],
  ['discount', /discount/],
  ['membershipPrice', /price|fee|amount|membership/],
  ['firstName', /firstname|givenname|forename|christianname/],
  ['lastName', /lastname|surname|familyname/],
  ['memberName', /name|member/],
];

/**
 * Guesses the mapping from a file's header row: each field takes the first column whose header
 * mentions it ('Email', 'E-mail address' → email; 'Referred By', 'Referrer email' → referred by;
 * 'Discount per branch (dollars)' → discount; 'Membership price' → price; 'First Name', 'Given
 * name' → first name; 'Last Name', 'Surname', 'Family name' → last name; 'Full name' → name), each
 * column used once; 'New price' never feeds the membership price (an export's derived column),
 * a full name is guessed only when no first or last name is.
 * The owner can change every choice before the dry run.
 * @param headers the file's first row, as parsed
 */
export function guessMemberCsvMapping(headers: readonly string[]): MemberCsvMapping {
  const mapping = emptyMemberCsvMapping();
  const simplified = headers.map((header) => header.toLowerCase().replace(/[^a-z]/g, ''));
  const used = new Set<number>();
  for (const [field, hint] of FIELD_HINTS) {
    if (field === 'memberName' && (mapping.firstName !== null || mapping.lastName !== null))
      continue;
    const index = simplified.findIndex(
      (header, column) =>
        !used.has(column) &&
        hint.test(header) &&
        !(field === 'membershipPrice' && header.startsWith('new')),
    );
    if (index >= 0) {
      mapping[field] = index;
      used.add(index);
    }
  }
  return mapping;
}

/**
 * The required fields an import still lacks (empty when it may go on): 'memberName' when neither a
 * full-name nor a first or last name column is chosen, 'discount' when there is no discount column
 * and no `discountForEveryRow`.
 * @param mapping the columns chosen so far
 * @param discountForEveryRow the discount typed for every row, if any (its format is not checked here)
 */
export function missingMemberCsvFields(
  mapping: Partial<MemberCsvMapping>,
  discountForEveryRow?: string | null,
): MemberCsvField[] {
  const has = (field: MemberCsvField) => mapping[field] !== null && mapping[field] !== undefined;
  return REQUIRED_MEMBER_CSV_FIELDS.filter((field) => {
    if (field === 'memberName') return !has('memberName') && !has('firstName') && !has('lastName');
    if (field === 'discount') return !has('discount') && !discountForEveryRow?.trim();
    return !has(field);
  });
}

/**
 * What a row of the file does (dry run) or did (import):
 * - 'add': a new member; 'update': an existing hand-added member with the same email key changes;
 * - 'unchanged': that member already has exactly these values (a re-import changes nothing);
 * - 'skipped': that member is managed by Mindbody or billed on the business's Stripe and is left
 *   as it is (`messages` says which);
 * - 'error': the row breaks a rule (`messages` says which); nothing of it is written.
 */
export type MemberImportOutcome = 'add' | 'update' | 'unchanged' | 'skipped' | 'error';

/** One row of a dry run. `line` is the row's line number in the file (the header is line 1). */
export interface MemberImportRowResult {
  line: number;
  memberName: string;
  memberEmail: string;
  outcome: MemberImportOutcome;
  /** The rule texts this row broke (or why it is skipped); empty otherwise. */
  messages: string[];
}

/** How many rows have each outcome. */
export type MemberImportCounts = Record<MemberImportOutcome, number>;

/** `POST /api/members-csv/imports` (body: the CSV file) → 201. */
export interface MemberImportUpload {
  importId: string;
  /** The file's header row. */
  headers: string[];
  /** Data rows (header excluded). */
  rowCount: number;
  /** The guessed mapping (`guessMemberCsvMapping`). */
  mapping: MemberCsvMapping;
}

/**
 * Body of `POST /api/members-csv/imports/:id/dry-run` and `…/run`: the mapping, and optionally one
 * discount for every row and the locale the amounts are written in (`MemberImportSettings`).
 */
export type MemberImportMappingRequest = MemberImportSettings;

/** `POST /api/members-csv/imports/:id/dry-run` → 200: every row's outcome; nothing is written. */
export interface MemberImportDryRun {
  counts: MemberImportCounts;
  rows: MemberImportRowResult[];
}

/** Where an import stands: 'queued' → 'running' → 'done' (or 'failed'). */
export type MemberImportState = 'uploaded' | 'queued' | 'running' | 'done' | 'failed';

/** `GET /api/members-csv/imports/:id` (and `POST …/run` → 202): progress and, once done, counts. */
export interface MemberImportStatus {
  importId: string;
  state: MemberImportState;
  /** Data rows in the file. */
  totalRows: number;
  /** Rows handled so far (the progress bar: processedRows / totalRows). */
  processedRows: number;
  /** Outcome counts once 'done'; null before. */
  counts: MemberImportCounts | null;
  /** Why the import failed ('failed' only). */
  error: string | null;
}

/** The messages an import's row (or file) can get besides the add-member form's. */
export const MEMBER_CSV_MESSAGES = {
  referrerInvalid: `Referrer: ${MESSAGES.invalidEmail}`,
  referrerUnknown: 'The referrer is not a member of this business or a row of this file',
  referrerManaged: 'The referrer is managed by Mindbody; add this branch in Mindbody',
  /** Issue 32: a member billed on Stripe gains branches only through its referral link. */
  referrerStripe:
    'The referrer is managed by Stripe; their friend becomes a branch by joining through their referral link',
  referrerCycle: 'The referrer is a branch of this member',
  duplicateRow: 'This email is already on an earlier row of this file',
  notCsv: 'Please upload a CSV file (.csv)',
  unreadable: 'The file could not be read as CSV',
  empty: 'The file has no rows to import',
  tooLarge: `The file is larger than ${CSV_IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  tooManyRows: `The file has more than ${CSV_IMPORT_MAX_ROWS.toLocaleString('en-AU')} rows; split it and import each part`,
  tooManyColumns: `The file has more than ${CSV_IMPORT_MAX_COLUMNS} columns; keep the member columns and import again`,
  tooManyCells: `The file has more than ${CSV_IMPORT_MAX_CELLS.toLocaleString('en-AU')} cells; keep the member columns or split it and import each part`,
  /** A data row with more cells than the header allows (its file line given). */
  rowTooWide: (line: number, headerColumns: number) =>
    `Line ${line} has more cells than the header's ${headerColumns} columns; check that its separators and quotes are right`,
  mappingIncomplete: 'Please choose a column for name, email, membership price and discount',
  mappingInvalid: 'Each field needs a column of the file, each column used once',
  nameTwice: 'Choose a full name column or first and last name columns, not both',
  discountTwice: 'Choose a discount column or one discount for every row, not both',
  notChecked: 'Check the rows before downloading the failed ones',
  importNotFound: 'Import not found',
} as const;
