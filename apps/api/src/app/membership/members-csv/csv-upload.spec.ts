import { MEMBER_CSV_MESSAGES } from '@grove/contracts';
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
