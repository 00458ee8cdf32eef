/**
 * Single-field rules shared by the API's DTOs and the web forms (docs/product.md#validation, docs/product.md#constants). Kept apart from the
 * phone rules (validate.ts, contact.ts) so a form that checks names, emails or web addresses does
 * not bundle libphonenumber's metadata.
 */
import { MESSAGES } from './messages';
import { AMOUNT_MAX_CENTS, NAME_MAX_LENGTH, NAME_PATTERN, SEARCH_MAX_LENGTH } from './rules';
import { dollarsToCents } from './money';
import { isPlainText } from './plain-text';

/** One message per invalid field of `T`; an empty object means the input is valid. */
export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** A body as it arrives: every field may be missing or of any JSON type. */
export type Unchecked<T> = { [K in keyof T]?: unknown };

/**
 * The one name rule (docs/product.md#validation-names): letters of any script, spaces, apostrophes
 * (' and ’), hyphens and periods, at least one letter, 1–100 characters (Unicode code points, as
 * PostgreSQL counts them) after trimming, no control character. "Siobhán O'Brien", "Anne-Marie
 * Dubois", "D'Arcy", "Ben O’Connor", "J. R. Smith", "王小明" and "Анна Петрова" pass; "R2D2",
 * "Sam_Lee" and "Sam\tLee" do not. Every form that takes a person's name uses it (add member, join
 * page, signup, Account Settings, contact, Learn More, CSV import), with that form's message.
 */
export function isValidName(value: string): boolean {
  const name = value.trim();
  const length = [...name].length;
  return length > 0 && length <= NAME_MAX_LENGTH && NAME_PATTERN.test(name);
}

/** docs/product.md#validation: one plain mailbox (`email-address.ts`, RFC 5321/5322), at most 254 characters. */
export { isValidEmail } from './email-address';

/**
 * The one amount rule (docs/product.md#validation, docs/product.md#constants), as the API receives
 * money: whole cents from 0 to 100,000,000 ($1,000,000, so it fits a 32-bit integer column).
 */
export function isValidCents(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= AMOUNT_MAX_CENTS
  );
}

/**
 * docs/product.md#validation: a dollar amount as typed in a form, a non-negative number with at
 * most two decimals that converts (`dollarsToCents`) to a valid amount in cents (`isValidCents`).
 */
export function isValidAmount(value: string | number): boolean {
  return isValidCents(dollarsToCents(value));
}

/** docs/product.md#validation-mindbody: the Mindbody discount on referral, valid cents of at least 1. */
export function isValidReferralDiscountCents(value: unknown): value is number {
  return isValidCents(value) && value >= 1;
}

/** docs/product.md#validation-mindbody: the discount on referral as typed (dollars), at least 0.01. */
export function isValidReferralDiscount(value: string | number): boolean {
  return isValidReferralDiscountCents(dollarsToCents(value));
}

/**
 * A web address an owner would type: `https://mygym.com.au`, `www.mygym.com` or `mygym.com`.
 * http(s) only, and the host must contain a dot; no white space or control character.
 */
export function isValidWebsite(value: string): boolean {
  const text = value.trim();
  if (!text || /\s/.test(text) || !isPlainText(text)) return false;
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && /\.[a-z]{2,}$/i.test(url.hostname)
    );
  } catch {
    return false;
  }
}

/** The `search` query parameter of the list endpoints. */
export interface SearchInput {
  search?: string;
}

/**
 * Checks a list's optional `search`: text of at most 200 characters (`SEARCH_MAX_LENGTH`, after
 * trimming) without control characters, else 'Search can contain only text'.
 * @returns `{ search: message }` when invalid; empty when valid or absent
 */
export function validateSearchInput(input: Unchecked<SearchInput>): FieldErrors<SearchInput> {
  const { search } = input;
  if (search === undefined) return {};
  return typeof search === 'string' && search.length <= SEARCH_MAX_LENGTH && isPlainText(search)
    ? {}
    : { search: MESSAGES.searchInvalid };
}
