/**
 * Single-field rules shared by the API's DTOs and the web forms (docs/product.md#validation, docs/product.md#constants). Kept apart from the
 * phone rules (validate.ts, contact.ts) so a form that checks names, emails or web addresses does
 * not bundle libphonenumber's metadata.
 */
import {
  AMOUNT_MAX_DOLLARS,
  AMOUNT_PATTERN,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
} from './rules';
import { dollarsToCents } from './money';
import { isPlainText } from './plain-text';

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

/** docs/product.md#validation: a standard email address pattern, at most 254 characters, no control character. */
export function isValidEmail(value: string): boolean {
  const email = value.trim();
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email) && isPlainText(email);
}

/** docs/product.md#validation: a non-negative dollar amount with at most two decimals (and at most $1,000,000). */
export function isValidAmount(value: string | number): boolean {
  const text = String(value).trim();
  return AMOUNT_PATTERN.test(text) && Number(text) <= AMOUNT_MAX_DOLLARS;
}

/** docs/product.md#validation: the Mindbody discount on referral, a valid amount of at least 0.01 dollars. */
export function isValidReferralDiscount(value: string | number): boolean {
  return isValidAmount(value) && (dollarsToCents(value) ?? 0) >= 1;
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
