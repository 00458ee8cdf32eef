import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A new object id as Stripe spells them: `<prefix>_` and 24 base-62 characters, e.g.
 * `cus_…`, `cs_test_…` (prefixes from openapi/fixtures3.json).
 */
export function newId(prefix: string): string {
  const bytes = randomBytes(24);
  let tail = '';
  for (const byte of bytes) tail += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${tail}`;
}

/** The current time in Unix seconds (Stripe's `created`). */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
