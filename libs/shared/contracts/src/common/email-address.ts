/**
 * Grove's one rule for an email address (issue 24 part 2; docs/product.md#validation 'Not a valid
 * email address'): a single mailbox `local@domain` that every mail program reads the same way.
 *
 * RFC 5322 §3.4 lets an address field carry much more than one mailbox: display names
 * (`Ann <a@x.com>`), comments (`(x)zed@x.com`), lists (`a@x.com, eve@y.com`, and `;` in
 * practice), groups (`grp:d@x.com;`) and quoted local parts (`"a,b"@x.com`). Mail libraries
 * (nodemailer's addressparser) parse such text and deliver to whatever mailbox they find in it,
 * which is not the one Grove stored and checked. So Grove accepts only an RFC 5321 §4.1.2
 * `Mailbox` whose local part is a dot-atom (RFC 5322 §3.2.3 `atext`, and letters, marks and
 * digits of any script as RFC 6531 allows) and whose domain is a host name (RFC 5321 §4.1.2
 * `Domain`: labels of letters, digits and inner hyphens, a top-level label of at least two
 * letters or an `xn--` A-label); no quoted strings, no address literals (`[1.2.3.4]`), no white
 * space, CR/LF or other control character anywhere. Lengths: local part at most 64, the whole at
 * most 254 characters (RFC 5321 §4.5.3.1).
 */
import { EMAIL_MAX_LENGTH } from './rules';
import { isPlainText } from './plain-text';

/** RFC 5321 §4.5.3.1.1: the longest local part. */
export const EMAIL_LOCAL_MAX_LENGTH = 64;

/**
 * One dot-atom part: RFC 5322 `atext` (letters, digits and ``!#$%&'*+/=?^_`{|}~-``), where the
 * letters and digits may be of any script (RFC 6531 `UTF8-non-ascii`, narrowed to letters, marks
 * and digits: no spaces, symbols or format characters).
 */
const ATOM = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
/** RFC 5322 §3.2.3 dot-atom: atoms joined by single dots, none first or last. */
const LOCAL_PART = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`, 'u');
/** One host name label (RFC 1035 §2.3.1, letters of any script for IDNs): no hyphen first or last, at most 63. */
const LABEL = /^(?!-)[\p{L}\p{M}\p{N}-]{1,63}(?<!-)$/u;
/** The top-level label: two or more letters, or an IDN's A-label (`xn--…`). */
const TOP_LABEL = /^(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/**
 * The mailbox an address denotes, or null when the text is anything but one plain mailbox (see
 * the module's rule). Surrounding white space is ignored; the rest is kept as typed.
 * @param value an address as typed, imported or stored
 * @returns `local@domain`, e.g. `' Ann.Lee@Gym.com '` → `'Ann.Lee@Gym.com'`; null for
 *   `(x)zed@x.com`, `a@x.com, eve@y.com`, `a;c@x.com`, `grp:d@x.com`, `Ann <a@x.com>`,
 *   `"a b"@x.com`, `a@[127.0.0.1]`, `a@x.com\r\nBcc: e@y.com`, `a@localhost`
 */
export function mailboxOf(value: string): string | null {
  const text = value.trim();
  if (text.length === 0 || text.length > EMAIL_MAX_LENGTH || !isPlainText(text)) return null;
  const at = text.indexOf('@');
  if (at <= 0 || at !== text.lastIndexOf('@')) return null;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > EMAIL_LOCAL_MAX_LENGTH || !LOCAL_PART.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  if (!TOP_LABEL.test(labels[labels.length - 1] ?? '')) return null;
  return text;
}

/**
 * True when `value` is one plain mailbox (`mailboxOf`): docs/product.md#validation "standard
 * address pattern" as Grove reads it, 'Not a valid email address' otherwise.
 */
export function isValidEmail(value: string): boolean {
  return mailboxOf(value) !== null;
}

/**
 * An address for nodemailer that it does not parse again: `{ name: '', address }` with the
 * checked mailbox (nodemailer's addressparser reads a string `to` as an address list, so
 * `a@x.com, eve@y.com` would reach two mailboxes).
 * @throws Error 'Not a valid email address' when `value` is not one plain mailbox (a caller must
 *   check first: an invalid stored address is never sent to)
 */
export function mailAddress(value: string): { name: ''; address: string } {
  const address = mailboxOf(value);
  if (address === null) throw new Error('Not a valid email address');
  return { name: '', address };
}
