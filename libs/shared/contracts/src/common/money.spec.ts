import { centsToDollarText, dollarsToCents, parseMoneyToCents } from './money';
import { formatCents } from './locale-format';
import { emailKey } from './email-key';

describe('dollarsToCents', () => {
  it.each([
    ['49', 4_900],
    ['49.9', 4_990],
    ['49.99', 4_999],
    ['0', 0],
    ['0.01', 1],
    [' 12.50 ', 1_250],
    [19.95, 1_995],
  ])('reads %p as %p cents', (input, cents) => {
    expect(dollarsToCents(input)).toBe(cents);
  });

  it.each(['-1', '1.999', 'abc', '', '1e3', '.5', '1.'])('refuses %p', (input) => {
    expect(dollarsToCents(input)).toBeNull();
  });
});

describe('parseMoneyToCents: amounts as owners type them (issue 25, Build 6)', () => {
  const NBSP = '\u00a0';
  const NNBSP = '\u202f';

  describe.each(['en-AU', 'en-US', 'en-GB'])('%s (decimal point, comma groups)', (locale) => {
    it.each([
      ['$1,059.00', 105_900],
      ['$59.00', 5_900],
      ['59', 5_900],
      ['£49', 4_900],
      ['A$ 49.95', 4_995],
      ['US$12.5', 1_250],
      ['AUD 1,234', 123_400],
      ['49.99 GBP', 4_999],
      ['1,059', 105_900],
      ['1,000,000.00', 100_000_000],
      ['  $7  ', 700],
      ['0.01', 1],
      // Unambiguous comma decimals read the same in every locale.
      ['59,00 €', 5_900],
      ['1.059,50 €', 105_950],
      ['1 059,50', 105_950],
    ])('reads %p as %p cents', (text, cents) => {
      expect(parseMoneyToCents(text, locale)).toBe(cents);
    });

    it('reads "1.059" as three decimals: not an amount', () => {
      expect(parseMoneyToCents('1.059', locale)).toBeNull();
    });
  });

  describe.each(['de-DE', 'fr-FR', 'de', 'fr'])('%s (decimal comma)', (locale) => {
    it.each([
      ['59,00 €', 5_900],
      ['59,00€', 5_900],
      ['€59,5', 5_950],
      ['1.059,50 €', 105_950],
      ['1 059,50', 105_950],
      [`1${NBSP}059,50${NBSP}€`, 105_950],
      [`1${NNBSP}059,50${NNBSP}€`, 105_950],
      ['1.059', 105_900],
      ['1 059', 105_900],
      ['EUR 12,5', 1_250],
      ['49', 4_900],
      // A decimal point with one or two digits is unambiguous.
      ['49.95', 4_995],
      ['$1,059.00', 105_900],
    ])('reads %p as %p cents', (text, cents) => {
      expect(parseMoneyToCents(text, locale)).toBe(cents);
    });

    it('reads "1,059" as three decimals: not an amount', () => {
      expect(parseMoneyToCents('1,059', locale)).toBeNull();
    });
  });

  it("reads Swiss apostrophe groups (de-CH) and defaults to en-AU's reading", () => {
    expect(parseMoneyToCents("CHF 1'059.50", 'de-CH')).toBe(105_950);
    expect(parseMoneyToCents('1,059')).toBe(105_900);
    expect(parseMoneyToCents('1,059', 'not a locale!')).toBe(105_900);
  });

  it.each([
    '',
    '$',
    'abc',
    'N/A',
    '-5',
    '$-5',
    '(5.00)',
    '59.',
    '.5',
    '1,05,900',
    '12,34,56',
    '1.000 000,00',
    '1.2.3,4',
    '1.9999',
    '1,999.999',
    '10,00,00',
    '5 €€',
    '€5 €',
    '$5 AUD',
    '5 5',
    'aud 5',
    '1e3',
  ])('refuses %p', (text) => {
    expect(parseMoneyToCents(text, 'en-AU')).toBeNull();
    expect(parseMoneyToCents(text, 'de-DE')).toBeNull();
  });
});

describe('formatting cents', () => {
  it('shows dollars with two decimals', () => {
    expect(formatCents(4_999)).toBe('$49.99');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(123_456)).toBe('$1,234.56');
    expect(centsToDollarText(4_950)).toBe('49.50');
  });
});

describe('emailKey (docs/product.md#entities)', () => {
  it('lower-cases and removes every dot', () => {
    expect(emailKey('Jo.E@X.com')).toBe('joe@xcom');
    expect(emailKey('joe@x.com')).toBe(emailKey('j.o.e@X.COM'));
  });

  it('ignores surrounding white space', () => {
    expect(emailKey('  Sam@Gym.io ')).toBe('sam@gymio');
  });
});
