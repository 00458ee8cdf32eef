import {
  CSV_IMPORT_EXTRA_CELLS,
  CSV_IMPORT_MAX_CELLS,
  CSV_IMPORT_MAX_COLUMNS,
  CSV_IMPORT_MAX_ROW_CHARS,
  CSV_IMPORT_MAX_ROWS,
  MEMBER_CSV_MESSAGES,
} from '@grove/contracts';
import { Readable } from 'node:stream';
import { readCsvUpload, sniffDelimiter, type CsvUploadRequest } from './csv-upload';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** The upload of `body` as a CSV request sends it, in pieces of `chunk` bytes. */
function request(body: Buffer, chunk = 64 * 1024): CsvUploadRequest {
  const pieces: Buffer[] = [];
  for (let start = 0; start < body.length; start += chunk)
    pieces.push(body.subarray(start, start + chunk));
  return Object.assign(Readable.from(pieces), { headers: { 'content-type': 'text/csv' } });
}

/** What `readCsvUpload` hands on: the header, each data row and its line. */
async function parseCsv(body: Buffer, chunk?: number) {
  const rows: string[][] = [];
  const lines: number[] = [];
  const { headers } = await readCsvUpload(request(body, chunk), (cells, line) => {
    rows.push(cells);
    lines.push(line);
  });
  return { headers, rows, lines };
}

describe('parseCsv (spreadsheets as owners have them, issue 25 Build 6)', () => {
  it('drops the byte-order mark Excel writes, keeps accents and apostrophes, and ignores blank rows', async () => {
    const parsed = await parseCsv(
      bytes(
        [
          '\uFEFFFirst Name,Last Name,Email,Price',
          "Siobhán,O'Brien,siobhan@x.com,$59.00",
          ',,,',
          ' , ,\u00a0, ',
          '',
          'Anne-Marie,Dubois,am@x.com,"$1,059.00"',
          ',,,',
          '',
          '',
        ].join('\r\n'),
      ),
    );
    expect(parsed.headers).toEqual(['First Name', 'Last Name', 'Email', 'Price']);
    expect(parsed.rows).toEqual([
      ['Siobhán', "O'Brien", 'siobhan@x.com', '$59.00'],
      ['Anne-Marie', 'Dubois', 'am@x.com', '$1,059.00'],
    ]);
    expect(parsed.lines).toEqual([2, 6]);
  });

  it('reads the semicolons Excel writes where the decimal separator is a comma', async () => {
    const parsed = await parseCsv(bytes('Vorname;Nachname;Preis\nJürgen;Groß;59,00 €\n'));
    expect(parsed.headers).toEqual(['Vorname', 'Nachname', 'Preis']);
    expect(parsed.rows).toEqual([['Jürgen', 'Groß', '59,00 €']]);
  });

  it('reads the same rows and lines whatever pieces the body arrives in (split inside letters, CR LF and quotes)', async () => {
    const text = [
      '\uFEFFFull name;E-mail;Preis',
      '"Zoë D\'Arcy-Nguyễn";zoe@example.com;"59,00 €"',
      '',
      '"Siobhán ""Shiv"" O\'Brien; Dublin";siobhan@example.com;49,00 €',
      'Ana-Sofía 🌿;ana@example.com;39,00 €',
    ].join('\r\n');
    const whole = await parseCsv(bytes(text));
    expect(whole.rows).toEqual([
      ["Zoë D'Arcy-Nguyễn", 'zoe@example.com', '59,00 €'],
      ['Siobhán "Shiv" O\'Brien; Dublin', 'siobhan@example.com', '49,00 €'],
      ['Ana-Sofía 🌿', 'ana@example.com', '39,00 €'],
    ]);
    expect(whole.lines).toEqual([2, 4, 5]);
    for (const chunk of [1, 2, 3, 7]) expect(await parseCsv(bytes(text), chunk)).toEqual(whole);
  });

  it('refuses a file of blank rows only', async () => {
    await expect(parseCsv(bytes('Name,Email\n,\n\n , \n'))).rejects.toThrow(
      MEMBER_CSV_MESSAGES.empty,
    );
  });
});

describe('parseCsv limits (issue 31: no file may cost the API more than its size)', () => {
  const header = 'Name,Email,Price,Discount';

  it('keeps a row with a trailing separator or two beyond the header (a spreadsheet leaves them)', async () => {
    const wide = `Ava,ava@x.com,59,10${','.repeat(CSV_IMPORT_EXTRA_CELLS)}`;
    expect((await parseCsv(bytes(`${header}\n${wide}\n`))).rows[0]).toHaveLength(
      4 + CSV_IMPORT_EXTRA_CELLS,
    );
  });

  it('refuses a row wider than the header allows, naming its line, before parsing it', async () => {
    const wide = `Ava,ava@x.com,59,10${','.repeat(CSV_IMPORT_EXTRA_CELLS + 1)}`;
    await expect(parseCsv(bytes(`${header}\nNoah,noah@x.com,59,10\n${wide}\n`))).rejects.toThrow(
      MEMBER_CSV_MESSAGES.rowTooWide(3, 4),
    );
  });

  it('counts separators inside quotes as text, also across line breaks', async () => {
    const quoted = `"Chen, Liam","liam@x.com","$1,059.00","${','.repeat(50)}\n${','.repeat(50)}"`;
    expect((await parseCsv(bytes(`${header}\r\n${quoted}\r\n`))).rows).toHaveLength(1);
  });

  it('names the line a row starts on when a quoted cell spans lines before it', async () => {
    const text = `${header}\n"Ava\nRossi",a@x.com,1,1\nNoah,n@x.com,1,1${',,,,,,'}\n`;
    await expect(parseCsv(bytes(text))).rejects.toThrow(MEMBER_CSV_MESSAGES.rowTooWide(4, 4));
  });

  it(`refuses a header of more than ${CSV_IMPORT_MAX_COLUMNS} columns`, async () => {
    const wide = Array.from({ length: CSV_IMPORT_MAX_COLUMNS + 1 }, (_, i) => `c${i}`).join(';');
    await expect(parseCsv(bytes(`${wide}\n${wide}\n`))).rejects.toThrow(
      MEMBER_CSV_MESSAGES.tooManyColumns,
    );
  });

  it('refuses five million empty cells in one row at once, without building the row', async () => {
    const before = process.memoryUsage().heapUsed;
    const text = `${header}\n${','.repeat(5_000_000)}\n${'x\n'.repeat(9_990)}`;
    await expect(parseCsv(bytes(text))).rejects.toThrow(MEMBER_CSV_MESSAGES.rowTooWide(2, 4));
    // The file's text twice (this test's string and the decoded copy, 10 MB) and little else:
    // the row itself, built, would be an array of five million cells (40 MB and more).
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(24 * 1024 * 1024);
  });

  it(`refuses a file of more than ${CSV_IMPORT_MAX_CELLS.toLocaleString('en')} cells in all, and of more than ${CSV_IMPORT_MAX_ROWS.toLocaleString('en')} rows`, async () => {
    // 100 columns: at most 10,000 rows of them.
    const wide = Array.from({ length: 100 }, (_, i) => `c${i}`).join(',');
    const row = `${','.repeat(99)}x\n`;
    const rows = CSV_IMPORT_MAX_CELLS / 100;
    await expect(parseCsv(bytes(`${wide}\n${row.repeat(rows)}`))).resolves.toMatchObject({
      headers: expect.arrayContaining(['c0', 'c99']),
    });
    await expect(parseCsv(bytes(`${wide},a\n${row.repeat(rows)}`))).resolves.toBeTruthy();
    const oneMore = `${wide}\n${row.repeat(rows - 1)}${','.repeat(100)}x\n`;
    await expect(parseCsv(bytes(oneMore))).rejects.toThrow(MEMBER_CSV_MESSAGES.tooManyCells);
    await expect(parseCsv(bytes(`Name\n${'x\n'.repeat(CSV_IMPORT_MAX_ROWS + 1)}`))).rejects.toThrow(
      MEMBER_CSV_MESSAGES.tooManyRows,
    );
  }, 60_000);

  it(`refuses a row of more than ${CSV_IMPORT_MAX_ROW_CHARS.toLocaleString('en')} characters`, async () => {
    const long = `Ava,ava@x.com,59,${'9'.repeat(CSV_IMPORT_MAX_ROW_CHARS)}`;
    await expect(parseCsv(bytes(`${header}\n${long}\n`))).rejects.toThrow(
      MEMBER_CSV_MESSAGES.unreadable,
    );
  });
});

describe('sniffDelimiter', () => {
  it.each([
    ['a,b,c\n1;2;3', ','],
    ['a;b;c\n1,2,3', ';'],
    ['a\tb\tc', '\t'],
    ['"x;y",b,c', ','],
    ['\n\nName;Email\n', ';'],
    ['Name', ','],
  ])('finds the separator of %j', (text, delimiter) => {
    expect(sniffDelimiter(text)).toBe(delimiter);
  });
});
