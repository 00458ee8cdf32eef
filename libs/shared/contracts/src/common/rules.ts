/**
 * Field rules shared by the API's DTOs (class-validator) and the web forms (react-hook-form).
 * Source: docs/product.md#validation (add-member form, signup form) and docs/product.md#constants (limits).
 */

/** docs/product.md#constants: name max 100 characters. */
export const NAME_MAX_LENGTH = 100;
/**
 * docs/product.md#validation-names (issue 25, Build 2): a real name is letters of any script (with
 * the combining marks some scripts write letters with), spaces, apostrophes (' and ’), hyphens and
 * periods, with at least one letter and no combining mark first. Digits, other punctuation, tabs,
 * line breaks and control characters are refused. The length is `isValidName`'s.
 */
export const NAME_PATTERN = /^(?=.*\p{L})(?!\p{M})[\p{L}\p{M} '’.-]+$/u;
/** Longest email the database accepts (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** docs/product.md#validation, docs/product.md#constants: non-negative number with optional one or two decimals. */
export const AMOUNT_PATTERN = /^(\d+)(?:\.(\d{1,2}))?$/;
/** Largest amount accepted, in dollars, so cents always fit a 32-bit integer column. */
export const AMOUNT_MAX_DOLLARS = 1_000_000;
/** Largest amount accepted, in cents (`AMOUNT_MAX_DOLLARS`). */
export const AMOUNT_MAX_CENTS = AMOUNT_MAX_DOLLARS * 100;
/** Longest business name signup and Account Settings accept (checked after trimming). */
export const BUSINESS_NAME_MAX_LENGTH = 200;
/** Largest page a list endpoint returns. */
export const PAGE_SIZE_MAX = 100;
/** Longest `search` text a list endpoint accepts (after trimming). */
export const SEARCH_MAX_LENGTH = 200;
/** Highest page number a list endpoint accepts (`MESSAGES.pageInvalid` beyond). */
export const PAGE_MAX = 1_000_000;

/** docs/product.md#constants: how long an error or message stays on screen (3 seconds). */
export const MESSAGE_DISPLAY_MS = 3_000;
