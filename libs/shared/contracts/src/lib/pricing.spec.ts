import { newPriceCents } from './pricing';
import { centsToDollarText, dollarsToCents, formatCents } from './money';
import { emailKey } from './email-key';

describe('newPriceCents (docs/product.md#constants)', () => {
  it('subtracts the discount once per branch', () => {
    expect(newPriceCents(10_000, 1_500, 0)).toBe(10_000);
    expect(newPriceCents(10_000, 1_500, 1)).toBe(8_500);
    expect(newPriceCents(10_000, 1_500, 3)).toBe(5_500);
  });

  it('never goes below zero', () => {
    expect(newPriceCents(5_000, 2_000, 3)).toBe(0);
    expect(newPriceCents(5_000, 2_000, 40)).toBe(0);
  });

  it('works in exact cents where floating dollars would drift', () => {
    // 0.1 + 0.2 style drift: $0.30 − 3 × $0.10 is exactly zero in cents
    expect(newPriceCents(30, 10, 3)).toBe(0);
    expect(newPriceCents(4_999, 333, 2)).toBe(4_333);
  });

  it('takes the discount for referee once, on top of the referral discounts, still floored at 0', () => {
    expect(newPriceCents(8_900, 1_000, 0, 550)).toBe(8_350);
    expect(newPriceCents(8_900, 1_000, 1, 550)).toBe(7_350);
    expect(newPriceCents(8_900, 1_000, 9, 550)).toBe(0);
    expect(newPriceCents(8_900, 1_000, 2, 0)).toBe(newPriceCents(8_900, 1_000, 2));
  });
});

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
