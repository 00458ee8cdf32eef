import { neutraliseCsvCell, neutraliseCsvRow } from './csv-cell';

describe('CSV cells (OWASP CSV injection, issue 24 part 4)', () => {
  it.each([
    '=1+1',
    '+61 400',
    '-2',
    '@SUM(A1)',
    '\tcmd',
    '\rcmd',
    '=HYPERLINK("http://evil.example/x","Open")',
  ])('neutralises formula cell %j', (cell) => {
    expect(neutraliseCsvCell(cell)).toBe(`'${cell}`);
  });

  it('leaves ordinary cells alone', () => {
    expect(neutraliseCsvCell('ann@x.com')).toBe('ann@x.com');
    expect(neutraliseCsvCell('a=b')).toBe('a=b');
    expect(neutraliseCsvCell('')).toBe('');
  });

  it('neutralises the text cells of a row and keeps numbers as numbers', () => {
    expect(neutraliseCsvRow(['=cmd', 'Ann', -5, 12.5])).toEqual(["'=cmd", 'Ann', -5, 12.5]);
  });
});
