import { dictionary } from '@zxcvbn-ts/language-common';

/** Lower-cased common passwords, built on first use (~49,000 entries, ~30 ms). */
let commonPasswords: ReadonlySet<string> | undefined;

/** A password made of one short unit repeated ('aaaaaaaaaaaa', 'abcabcabcabc', '121212121212'). */
const REPEATED_UNIT = /^(.{1,4})\1+$/su;
/** Digits, punctuation and spaces people append to a common password ('password2024!'). */
const TRAILING_DECORATION = /[\d\p{P}\p{S}\s]+$/u;

/**
 * Whether a new password is a known common or breached one (OWASP ASVS 4.0.3 2.1.7), checked
 * offline against the common-password list of zxcvbn-ts (`@zxcvbn-ts/language-common`, built
 * from public breach corpora and top-password lists). Case is ignored. Also counted as common: a
 * listed password with digits or symbols appended ('Password2024!', 'monkey123456'), and one short
 * unit repeated ('abcabcabcabc'). Grove's contracts call this through `passwordProblem`, so the
 * list stays on the API and out of the web bundles.
 * @param password the password as typed
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));
  const text = password.toLowerCase();
  if (commonPasswords.has(text) || REPEATED_UNIT.test(text)) return true;
  const stem = text.replace(TRAILING_DECORATION, '');
  return stem !== text && stem.length >= 4 && commonPasswords.has(stem);
}
