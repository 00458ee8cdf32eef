/**
 * Members in and out of Grove as CSV (issue 14 part 5: Export and Import on the Branches screen).
 * The column set, the mapping guess, the per-row outcomes and the limits live here once, for the
 * API (which parses, checks and writes) and the dashboard (which shows the mapping and dry run).
 * Row rules and their texts are the add-member form's (`validateMemberInput`,
 * docs/product.md#validation); amounts are dollars with at most two decimals, as typed in the form.
 */
import { MESSAGES } from './messages';

/** Largest upload the import accepts, in bytes (5 MB; the API's JSON limit stays 100 KB). */
export const CSV_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Most data rows (after the header) one import takes in one go. */
export const CSV_IMPORT_MAX_ROWS = 10_000;

/** The member fields an import fills, in the order the mapping shows them. */
export const MEMBER_CSV_FIELDS = [
  'memberName',
  'memberEmail',
  'membershipPrice',
  'discount',
  'referrerEmail',
] as const;
export type MemberCsvField = (typeof MEMBER_CSV_FIELDS)[number];

/** Fields an import cannot do without (the add-member form requires them all). */
export const REQUIRED_MEMBER_CSV_FIELDS: readonly MemberCsvField[] = [
  'memberName',
  'memberEmail',
  'membershipPrice',
  'discount',
];

/** What each field is called on screen (mapping labels). */
export const MEMBER_CSV_FIELD_LABELS: Record<MemberCsvField, string> = {
  memberName: 'Name',
  memberEmail: 'Email',
  membershipPrice: 'Membership price (dollars)',
  discount: 'Discount per branch (dollars)',
  referrerEmail: "Referrer's email (optional)",
};

/**
 * Which file column (0-based index) feeds each field; null = no column. An import needs the four
 * `REQUIRED_MEMBER_CSV_FIELDS`.
 */
export type MemberCsvMapping = Record<MemberCsvField, number | null>;

/**
 * The export's header row, in column order. Amounts are dollars with two decimals (said in the
 * header), so an exported file imports back as it is: the import's guess maps these names.
 */
export const MEMBER_EXPORT_HEADER = [
  'Name',
  'Email',
  'Branches',
  'Membership price (dollars)',
  'Discount per branch (dollars)',
  'New price (dollars)',
  'Referral link',
  "Referrer's email",
  'Managed by Mindbody',
] as const;

/** Words in a header that point at a field, checked after lower-casing and dropping non-letters. */
const FIELD_HINTS: Record<MemberCsvField, RegExp> = {
  referrerEmail: /referrer|referredby|invitedby/,
  memberEmail: /email|mail/,
  discount: /discount/,
  membershipPrice: /price|fee|amount|membership/,
  memberName: /name|member/,
};

/**
 * Guesses the mapping from a file's header row: each field takes the first column whose header
 * mentions it ('Email', 'E-mail address' → email; 'Referrer email' → referrer; 'Discount per branch
 * (dollars)' → discount; 'Membership price' → price; 'Full name' → name), each column used once;
 * 'New price' never feeds the membership price (an export's derived column). The owner can change
 * every choice before the dry run.
 * @param headers the file's first row, as parsed
 */
export function guessMemberCsvMapping(headers: readonly string[]): MemberCsvMapping {
  const mapping: MemberCsvMapping = {
    memberName: null,
    memberEmail: null,
    membershipPrice: null,
    discount: null,
    referrerEmail: null,
  };
  const simplified = headers.map((header) => header.toLowerCase().replace(/[^a-z]/g, ''));
  const used = new Set<number>();
  // Most specific first: a referrer's email must not be taken as the member's email.
  for (const field of Object.keys(FIELD_HINTS) as MemberCsvField[]) {
    const index = simplified.findIndex(
      (header, column) =>
        !used.has(column) &&
        FIELD_HINTS[field].test(header) &&
        !(field === 'membershipPrice' && header.startsWith('new')),
    );
    if (index >= 0) {
      mapping[field] = index;
      used.add(index);
    }
  }
  return mapping;
}

/** The fields of a mapping that still need a column (empty when the import may go on). */
export function missingMemberCsvFields(mapping: Partial<MemberCsvMapping>): MemberCsvField[] {
  return REQUIRED_MEMBER_CSV_FIELDS.filter(
    (field) => mapping[field] === null || mapping[field] === undefined,
  );
}

/**
 * What a row of the file does (dry run) or did (import):
 * - 'add': a new member; 'update': an existing hand-added member with the same email key changes;
 * - 'unchanged': that member already has exactly these values (a re-import changes nothing);
 * - 'skipped': that member is managed by Mindbody and is left as it is;
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

/** Body of `POST /api/members-csv/imports/:id/dry-run` and `…/run`. */
export interface MemberImportMappingRequest {
  mapping: MemberCsvMapping;
}

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
  referrerCycle: 'The referrer is a branch of this member',
  duplicateRow: 'This email is already on an earlier row of this file',
  notCsv: 'Please upload a CSV file (.csv)',
  unreadable: 'The file could not be read as CSV',
  empty: 'The file has no rows to import',
  tooLarge: `The file is larger than ${CSV_IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  tooManyRows: `The file has more than ${CSV_IMPORT_MAX_ROWS.toLocaleString('en-AU')} rows; split it and import each part`,
  mappingIncomplete: 'Please choose a column for name, email, membership price and discount',
  mappingInvalid: 'Each field needs a column of the file, each column used once',
  importNotFound: 'Import not found',
} as const;
