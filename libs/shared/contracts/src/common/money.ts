/** Money is integer cents everywhere in Grove (docs/architecture.md#database); these helpers are the only bridge;
 * formatting for people is `formatCents` / `localeFormats` in locale-format.ts. */

import { AMOUNT_PATTERN } from './rules';

/** Locale amounts typed in a spreadsheet are read in by default (docs/product.md#constants: en-AU). */
export const MONEY_LOCALE = 'en-AU';

/**
 * Parses a dollar amount as typed in a form ("49", "49.9", "49.99") into integer cents without
 * floating-point rounding. Accepts only docs/product.md#validation's amount pattern (non-negative, at most two
 * decimals); anything else returns `null`.
 * @param dollars the amount in dollars, as text or a number
 * @returns integer cents, or null when the text is not a valid amount
 */
export function dollarsToCents(dollars: string | number): number | null {
  const text = typeof dollars === 'number' ? String(dollars) : dollars.trim();
  const match = AMOUNT_PATTERN.exec(text);
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

/**
 * A currency written before or after an amount in a spreadsheet: an ISO 4217 code ("AUD", "EUR")
 * or a currency symbol with up to three letters before it ("$", "A$", "AU$", "US$", "€", "£").
 */
const CURRENCY_MARK = String.raw`(?:[A-Z]{3}|[A-Z]{0,3}\p{Sc})`;
/** Digits with thousands and decimal separators (checked by `parseMoneyToCents`). */
const NUMBER = String.raw`[\d.,'’\s]*\d`;
const AMOUNT_WITH_CURRENCY = new RegExp(
  String.raw`^(?:${CURRENCY_MARK}\s*(${NUMBER})|(${NUMBER})(?:\s*${CURRENCY_MARK})?)$`,
  'u',
);
/** Characters that only ever group thousands: spaces (also no-break and narrow ones) and apostrophes. */
const SPACE_GROUP = /[\s'’]/u;

/** The decimal separator of a locale ('.' for en-AU, ',' for de-DE); en-AU's for an unknown locale. */
function decimalSeparator(locale: string): string {
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(locale).formatToParts(1.5);
  } catch {
    parts = new Intl.NumberFormat(MONEY_LOCALE).formatToParts(1.5);
  }
  return parts.find((part) => part.type === 'decimal')?.value ?? '.';
}

/**
 * Reads an amount as owners type it in a spreadsheet (issue 25, Build 6;
 * docs/product.md#members-csv) into integer cents: "$1,059.00", "59,00 €", "£49", "1 059,50",
 * "AUD 49.95", "1.059,50 €" (de), "1'059.50" (de-CH). The rules, for any locale:
 * - one currency mark before or after the number is dropped: a symbol ("$", "€", "£", also "A$",
 *   "US$") or an ISO code ("AUD", "EUR"); the currency itself is not checked (Grove has one);
 * - spaces (also no-break and narrow no-break ones) and apostrophes group thousands;
 * - with both "." and ",", the last one is the decimal separator and the other groups thousands;
 * - one kind of them more than once groups thousands ("1,000,000", "1.000.000");
 * - one of them once, followed by 1 or 2 digits, is the decimal separator ("59,00", "49.5");
 *   followed by 3 digits it is read as `locale` reads it: "1,059" is 1059 in en-AU, en-US and
 *   en-GB but 1.059 in de-DE and fr-FR (then three decimals: not an amount); "1.059" the reverse;
 * - thousands groups have 3 digits (the first 1 to 3), the fraction 1 or 2 digits.
 * Negative amounts ("-5", "(5.00)"), more than two decimals, Indian grouping ("1,05,900"), two
 * currency marks or any other text are not amounts: null, for the caller's 'Not a valid amount' /
 * 'Not a valid discount price' (docs/product.md#validation). The $1,000,000 ceiling is the
 * caller's (`isValidAmount` on `centsToDollarText` of the result).
 * @param text the cell as typed
 * @param locale a BCP 47 locale the file's amounts are written in (default en-AU,
 *   docs/product.md#constants); an unknown one reads as en-AU
 * @returns integer cents, or null when the text is not an amount
 */
export function parseMoneyToCents(text: string, locale: string = MONEY_LOCALE): number | null {
  const match = AMOUNT_WITH_CURRENCY.exec(text.trim());
  const number = match?.[1] ?? match?.[2];
  if (!number || !/^\d/.test(number)) return null;
  const dots = number.split('.').length - 1;
  const commas = number.split(',').length - 1;
  let decimal: '.' | ',' | null = null;
  if (dots > 0 && commas > 0)
    decimal = number.lastIndexOf('.') > number.lastIndexOf(',') ? '.' : ',';
  else if (dots + commas === 1) {
    const mark = dots === 1 ? '.' : ',';
    const after = number.length - number.indexOf(mark) - 1;
    if (after !== 3 || decimalSeparator(locale) === mark) decimal = mark;
  }
  const [whole = '', fraction, extra] = decimal === null ? [number] : number.split(decimal);
  if (extra !== undefined) return null;
  if (fraction !== undefined && !/^\d{1,2}$/.test(fraction)) return null;
  const groups = whole.split(/[.,\s'’]/u);
  if (groups.length > 1) {
    const separators = new Set(
      [...whole.replace(/\d/g, '')].map((mark) => (SPACE_GROUP.test(mark) ? ' ' : mark)),
    );
    const [first = '', ...rest] = groups;
    if (separators.size > 1 || !/^\d{1,3}$/.test(first) || rest.some((g) => !/^\d{3}$/.test(g)))
      return null;
  }
  return dollarsToCents(
    fraction === undefined ? groups.join('') : `${groups.join('')}.${fraction}`,
  );
}
