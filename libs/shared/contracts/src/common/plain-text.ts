/**
 * Control characters no text field accepts (shared by the API's DTOs and the web forms): the C0
 * controls U+0000–U+001F, DEL U+007F and the C1 controls U+0080–U+009F (Unicode category Cc; NUL
 * is also refused by PostgreSQL, error 22021), and the bidirectional embedding, override and
 * isolate controls U+202A–U+202E and U+2066–U+2069, which make text display in another order than
 * it is stored (Trojan Source, CVE-2021-42574).
 */
const CONTROL_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** The line breaks and tab a multi-line field (a textarea) keeps: U+0009, U+000A, U+000D. */
const MULTI_LINE_WHITESPACE = /[\t\n\r]/g;

/**
 * True when a single-line value holds no control character (see `CONTROL_CHARACTERS`: C0, DEL,
 * C1, bidi overrides and isolates; tab and line breaks are refused too).
 */
export function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value);
}

/**
 * True when a multi-line value (contact message, issue description) holds no control character
 * other than tab, line feed and carriage return.
 */
export function isPlainMultilineText(value: string): boolean {
  return isPlainText(value.replace(MULTI_LINE_WHITESPACE, ' '));
}

/**
 * A single-line text from elsewhere (a Mindbody client's name) made plain (issue 24 part 3): every
 * control character (`CONTROL_CHARACTERS`: C0 with tab and line breaks, DEL, C1, bidi overrides
 * and isolates) becomes a space, runs of white space become one space, and the ends are trimmed.
 * @example toPlainText('Carl\r\nBcc: x') → 'Carl Bcc: x'
 */
export function toPlainText(value: string): string {
  return value
    .replace(new RegExp(CONTROL_CHARACTERS.source, 'gu'), ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * `text` ending a sentence: with a full stop, unless it ends in one already (a business named
 * "Ó Briain's Strength & Co." or "Yoga!" gets no second one).
 * @param stop the punctuation to add ('.' by default, '!' for an exclamation)
 * @example endSentence("Ó Briain's Strength & Co.") → "Ó Briain's Strength & Co."
 * @example endSentence('Peak Fitness', '!') → 'Peak Fitness!'
 */
export function endSentence(text: string, stop: '.' | '!' = '.'): string {
  return /[.!?…]$/u.test(text.trim()) ? text : `${text}${stop}`;
}
