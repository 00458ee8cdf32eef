import { centsToDollarText, dollarsToCents, formatCents } from './money';
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
