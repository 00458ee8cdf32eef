import { randomBytes } from 'node:crypto';

/** Bytes of one referral code: 96 bits from the OS CSPRNG. */
const CODE_BYTES = 12;

/** A referral code: 12 bytes (96 bits) from the OS CSPRNG, base64url → 16 URL-safe characters. */
export function newReferralCode(): string {
  return newReferralCodes(1)[0];
}

/**
 * `count` referral codes for a bulk write (one per member of an import page), each as
 * {@link newReferralCode} makes it (12 bytes of the OS CSPRNG, base64url → 16 URL-safe
 * characters), cut from ONE `randomBytes(12 × count)`: a call per code cost 6–16 ms per 2,000
 * members of a Mindbody import write, one call 0.5–3 ms (docs/decisions/import-write-floor.md,
 * session 27).
 * @param count codes wanted, ≥ 0
 */
export function newReferralCodes(count: number): string[] {
  const bytes = randomBytes(CODE_BYTES * count);
  return Array.from({ length: count }, (_, i) =>
    bytes.subarray(i * CODE_BYTES, (i + 1) * CODE_BYTES).toString('base64url'),
  );
}
