import {
  CSV_IMPORT_EXTRA_CELLS,
  CSV_IMPORT_MAX_COLUMNS,
  CSV_IMPORT_MAX_ROW_CHARS,
  MEMBER_CSV_MESSAGES,
} from '@grove/contracts';
import { parseCsv, sniffDelimiter } from './csv-upload';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('parseCsv (spreadsheets as owners have them, issue 25 Build 6)', () => {
  it('drops the byte-order mark Excel writes, keeps accents and apostrophes, and ignores blank rows', () => {
    const parsed = parseCsv(
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

  it('reads the semicolons Excel writes where the decimal separator is a comma', () => {
    const parsed = parseCsv(bytes('Vorname;Nachname;Preis\nJürgen;Groß;59,00 €\n'));
    expect(parsed.headers).toEqual(['Vorname', 'Nachname', 'Preis']);
    expect(parsed.rows).toEqual([['Jürgen', 'Groß', '59,00 €']]);
  });

  it('refuses a file of blank rows only', () => {
    expect(() => parseCsv(bytes('Name,Email\n,\n\n , \n'))).toThrow(MEMBER_CSV_MESSAGES.empty);
  });
});

describe('parseCsv limits (issue 31: no file may cost the API more than its size)', () => {
  const header = 'Name,Email,Price,Discount';

  it('keeps a row with a trailing separator or two beyond the header (a spreadsheet leaves them)', () => {
    const wide = `Ava,ava@x.com,59,10${','.repeat(CSV_IMPORT_EXTRA_CELLS)}`;
    expect(parseCsv(bytes(`${header}\n${wide}\n`)).rows[0]).toHaveLength(
      4 + CSV_IMPORT_EXTRA_CELLS,
    );
  });

  it('refuses a row wider than the header allows, naming its line, before parsing it', () => {
    const wide = `Ava,ava@x.com,59,10${','.repeat(CSV_IMPORT_EXTRA_CELLS + 1)}`;
    expect(() => parseCsv(bytes(`${header}\nNoah,noah@x.com,59,10\n${wide}\n`))).toThrow(
      MEMBER_CSV_MESSAGES.rowTooWide(3, 4),
    );
  });

  it('counts separators inside quotes as text, also across line breaks', () => {
    const quoted = `"Chen, Liam","liam@x.com","$1,059.00","${','.repeat(50)}\n${','.repeat(50)}"`;
    expect(parseCsv(bytes(`${header}\r\n${quoted}\r\n`)).rows).toHaveLength(1);
  });

  it('names the line a row starts on when a quoted cell spans lines before it', () => {
    const text = `${header}\n"Ava\nRossi",a@x.com,1,1\nNoah,n@x.com,1,1${',,,,,,'}\n`;
    expect(() => parseCsv(bytes(text))).toThrow(MEMBER_CSV_MESSAGES.rowTooWide(4, 4));
  });

  it(`refuses a header of more than ${CSV_IMPORT_MAX_COLUMNS} columns`, () => {
    const wide = Array.from({ length: CSV_IMPORT_MAX_COLUMNS + 1 }, (_, i) => `c${i}`).join(';');
    expect(() => parseCsv(bytes(`${wide}\n${wide}\n`))).toThrow(MEMBER_CSV_MESSAGES.tooManyColumns);
  });

  it('refuses five million empty cells in one row at once, without building the row', () => {
    const before = process.memoryUsage().heapUsed;
    const text = `${header}\n${','.repeat(5_000_000)}\n${'x\n'.repeat(9_990)}`;
    expect(() => parseCsv(bytes(text))).toThrow(MEMBER_CSV_MESSAGES.rowTooWide(2, 4));
    // The file's text twice (this test's string and the decoded copy, 10 MB) and little else:
    // the row itself, built, would be an array of five million cells (40 MB and more).
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(24 * 1024 * 1024);
  });

  it(`refuses a row of more than ${CSV_IMPORT_MAX_ROW_CHARS.toLocaleString('en')} characters`, () => {
    const long = `Ava,ava@x.com,59,${'9'.repeat(CSV_IMPORT_MAX_ROW_CHARS)}`;
    expect(() => parseCsv(bytes(`${header}\n${long}\n`))).toThrow(MEMBER_CSV_MESSAGES.unreadable);
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
