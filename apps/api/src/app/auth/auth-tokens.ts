import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Name of the httpOnly cookie holding the access token (a JWT). */
export const ACCESS_COOKIE = 'grove_access';
/** Name of the httpOnly cookie holding the refresh token; sent only to `/api/auth`. */
export const REFRESH_COOKIE = 'grove_refresh';
/** Path of the refresh cookie. */
export const REFRESH_COOKIE_PATH = '/api/auth';

/** Claims of Grove's access token. */
export interface AccessTokenClaims {
  /** user id */
  sub: string;
  /** business id (tenancy) */
  bid: string;
  /** session id (`sessions.id`), checked on every request so logout ends the session at once */
  sid: string;
}

/** A new opaque refresh token: 32 random bytes, base64url (43 characters). */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How a refresh token is stored: SHA-256, hex (the token has 256 bits of entropy; no salt needed). */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Hashes a password with argon2id (the library's default algorithm) → PHC string `$argon2id$…`. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches the argon2 PHC string `passwordHash`; false on any malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
