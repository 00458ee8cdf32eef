/**
 * The one rule for a cell of a CSV file Grove produces (issue 24 part 4), whether the API writes
 * it (the members export) or the browser does (the analytics downloads): OWASP "CSV Injection"
 * (https://owasp.org/www-community/attacks/CSV_Injection). A spreadsheet runs a cell that starts
 * with `=`, `+`, `-` or `@` as a formula (`=HYPERLINK("http://evil.example/x","Open")`), and
 * skips a leading tab or carriage return before deciding, so those start a formula too.
 */

/** The first characters that make a spreadsheet read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises a text cell a spreadsheet would run as a formula: a value starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return gets a leading single quote, so Excel, LibreOffice and
 * Sheets show it as text. Other values come back as they are.
 * @param value the cell's text, e.g. a member's name
 * @returns e.g. `'=HYPERLINK(…)` for `=HYPERLINK(…)`, `Ann Lee` for `Ann Lee`
 */
export function neutraliseCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * A row of a CSV file with every text cell neutralised (`neutraliseCsvCell`). Numbers Grove
 * computed (counts, dollars) stay numbers: a number is never read as a formula.
 * @param row the cells in column order
 */
export function neutraliseCsvRow<T extends string | number>(
  row: readonly T[],
): (string | number)[] {
  return row.map((cell) => (typeof cell === 'string' ? neutraliseCsvCell(cell) : cell));
}
