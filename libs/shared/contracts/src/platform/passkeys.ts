import { isPlainText } from '../common/plain-text';

/**
 * Passkeys (issue 34 item 3, docs/product.md#passkeys, docs/decisions/passkeys.md): WebAuthn
 * credentials a user registers in Account Settings' Security card and signs in with, without a
 * password or as the second step after it.
 */

/** The longest name a passkey may have (characters). */
export const PASSKEY_NAME_MAX = 60;

/** What the passkey forms and routes answer (docs/product.md#passkeys). */
export const PASSKEY_MESSAGES = {
  nameMissing: 'Give this passkey a name, such as the device it is on',
  nameTooLong: `Keep the name to ${PASSKEY_NAME_MAX} characters`,
  nameInvalid: 'Use letters, numbers and punctuation only',
  responseMissing: 'The passkey did not answer. Please try again.',
  registrationFailed: 'This passkey could not be added. Please try again.',
  alreadyRegistered: 'This passkey is already added to your account.',
  signInFailed: 'This passkey could not sign you in. Try again, or use your password.',
  confirmFailed: "Your passkey could not confirm it's you. Please try again.",
  notFound: 'That passkey was already removed.',
  /** Removing the last passkey of an account whose person never chose a password (issue 34). */
  lastWithoutPassword: 'Set a password before removing your last passkey.',
  cancelled: 'The passkey request was cancelled or timed out.',
  unsupported: 'This browser cannot use passkeys.',
} as const;

/** The body of `POST /api/account/passkeys` as far as the form goes: the passkey's name. */
export interface PasskeyNameInput {
  name: string;
}

/**
 * Checks a passkey's name: 1–60 characters of plain text (trimmed).
 * @returns `{ name: message }` for the first problem, or `{}`
 */
export function validatePasskeyName(input: { name?: unknown }): { name?: string } {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) return { name: PASSKEY_MESSAGES.nameMissing };
  if ([...name].length > PASSKEY_NAME_MAX) return { name: PASSKEY_MESSAGES.nameTooLong };
  if (!isPlainText(name)) return { name: PASSKEY_MESSAGES.nameInvalid };
  return {};
}
