import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { RECOVERY_CODE_COUNT } from '@grove/contracts';

/** Steps of 30 seconds accepted either side of now (RFC 6238 §5.2: one step of clock drift). */
const DRIFT_SECONDS = 30;

/** A new TOTP secret: 20 random bytes (160 bits, RFC 4226 §4), base32 as apps expect. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/**
 * The `otpauth://totp/…` URI an authenticator app reads from the QR code (SHA-1, 6 digits, 30
 * seconds: the defaults every app supports).
 */
export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: 'Grove', label: account, secret });
}

/**
 * Checks a 6-digit code against `secret`, one step of drift either side, never a step at or
 * before `afterTimeStep` (a code is accepted once, ASVS 2.8.4).
 * @returns the time step the code belongs to (store it as the next `afterTimeStep`), or null
 */
export async function checkTotp(
  secret: string,
  code: string,
  afterTimeStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: DRIFT_SECONDS,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Recovery codes' alphabet: Crockford base32, lower case (no i, l, o, u: nothing to misread). */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * `RECOVERY_CODE_COUNT` new recovery codes of 10 characters each (50 bits, ASVS 2.6.2 asks 20 at
 * least), shown once as `xxxxx-xxxxx`.
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** How a recovery code is stored: the SHA-256 (hex) of its normalised form (50 random bits: no salt or slow hash needed, as for reset links). */
export function recoveryCodeHash(normalised: string): string {
  return createHash('sha256').update(normalised).digest('hex');
}
