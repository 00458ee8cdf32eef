import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret could not be opened (wrong key, e.g. after a restart without its key, or tampering). */
export class SealedSecretError extends Error {
  constructor() {
    super('A stored secret could not be decrypted');
    this.name = 'SealedSecretError';
  }
}

/**
 * Seals a secret with AES-256-GCM: a fresh random 96-bit IV per value and the 128-bit auth tag.
 * @param key 32 bytes
 * @returns `v1.<iv>.<tag>.<ciphertext>` (base64url parts)
 */
export function sealSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/**
 * Opens a value made by {@link sealSecret}.
 * @throws SealedSecretError on a wrong key, a changed byte or a malformed value
 */
export function openSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined)
    throw new SealedSecretError();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SealedSecretError();
  }
}

/**
 * A 32-byte key for one purpose, derived from the API's JWT_SECRET by HKDF-SHA256 (salt 'grove',
 * `info` = the purpose), as every secret Grove keeps at rest without a key of its own
 * (docs/decisions/second-factor.md): no new secret to deploy, one key per purpose.
 * @param jwtSecret the API's JWT_SECRET
 * @param purpose e.g. {@link QUEUED_EMAIL_KEY_PURPOSE}
 */
export function appSecretKey(jwtSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'grove', purpose, 32));
}
