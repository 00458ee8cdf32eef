import { randomBytes } from 'node:crypto';

/** A referral code: 12 bytes (96 bits) from the OS CSPRNG, base64url → 16 URL-safe characters. */
export function newReferralCode(): string {
  return randomBytes(12).toString('base64url');
}
