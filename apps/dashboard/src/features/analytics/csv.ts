/**
 * Downloads `rows` (the first one the header) as a CSV file named `filename`. The CSV text is
 * written by papaparse's `unparse` (quoting, commas and line breaks inside values), loaded only
 * when an owner first downloads.
 */
export async function downloadCsv(filename: string, rows: (string | number)[][]): Promise<void> {
  const { unparse } = await import('papaparse');
  const blob = new Blob([unparse(rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
