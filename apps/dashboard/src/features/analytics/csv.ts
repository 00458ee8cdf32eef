import { neutraliseCsvRow } from '@grove/contracts';

/**
 * The CSV text of `rows` (the first one the header): every text cell neutralised by the one rule
 * Grove's files follow (`neutraliseCsvRow` in contracts: OWASP CSV injection, so a member named
 * `=HYPERLINK(…)` is shown as text), then written by papaparse's `unparse` (quoting, commas and
 * line breaks inside values), loaded only when an owner first downloads.
 */
export async function csvText(rows: (string | number)[][]): Promise<string> {
  const { unparse } = await import('papaparse');
  return unparse(rows.map((row) => neutraliseCsvRow(row)));
}

/** Downloads `rows` (the first one the header) as a CSV file named `filename` (`csvText`). */
export async function downloadCsv(filename: string, rows: (string | number)[][]): Promise<void> {
  const blob = new Blob([await csvText(rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
