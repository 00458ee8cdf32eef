/** Money is integer cents everywhere in Grove (docs/architecture.md#database); these helpers are the only bridge. */

/** Currency every price is shown in (docs/product.md#screens shows prices in dollars). */
export const CURRENCY = 'AUD';
/** Locale used to format money; the product's phone locale is en-AU (docs/product.md#constants). */
export const MONEY_LOCALE = 'en-AU';

const formatter = new Intl.NumberFormat(MONEY_LOCALE, { style: 'currency', currency: CURRENCY });

/**
 * Formats integer cents as dollars for display, e.g. `4999` → `"$49.99"`.
 * @param cents integer cents (may be 0)
 */
export function formatCents(cents: number): string {
  return formatter.format(cents / 100);
}

/**
 * Parses a dollar amount as typed in a form ("49", "49.9", "49.99") into integer cents without
 * floating-point rounding. Accepts only docs/product.md#validation's amount pattern (non-negative, at most two
 * decimals); anything else returns `null`.
 * @param dollars the amount in dollars, as text or a number
 * @returns integer cents, or null when the text is not a valid amount
 */
export function dollarsToCents(dollars: string | number): number | null {
  const text = typeof dollars === 'number' ? String(dollars) : dollars.trim();
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * Renders cents as a plain dollar amount for form fields, e.g. `4950` → `"49.50"`.
 * @param cents integer cents
 */
export function centsToDollarText(cents: number): string {
  return (cents / 100).toFixed(2);
}
