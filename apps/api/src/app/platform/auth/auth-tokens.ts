import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

import { SESSION_HINT_COOKIE } from '@grove/contracts';

/** Name of the httpOnly cookie holding the access token (a JWT), without the `__Host-` prefix. */
export const ACCESS_COOKIE = 'grove_access';
/** Name of the httpOnly cookie holding the refresh token, without the `__Host-` prefix. */
export const REFRESH_COOKIE = 'grove_refresh';

/** The names and the refresh cookie's path of the three auth cookies in one cookie mode. */
export interface AuthCookieNames {
  access: string;
  refresh: string;
  /** The readable `SESSION_HINT_COOKIE` (random, no secret). */
  hint: string;
  /** Path of the refresh cookie. */
  refreshPath: string;
}

/**
 * The auth cookies' names. Secure cookies (COOKIE_SECURE) carry the `__Host-` prefix, which the
 * browser accepts only from a secure origin, with `Secure`, `Path=/` and no `Domain`: a sibling
 * subdomain or a plain-http page cannot plant or overwrite them (RFC 6265bis §4.1.3.2; OWASP ASVS
 * 4.0.3 §3.4.4). A `__Host-` cookie must live on `/`, so the refresh cookie then goes with every
 * request (still httpOnly, SameSite=Lax; only `/api/auth/refresh` and `/api/auth/logout` read
 * it). Without Secure (`npm start` on http://localhost) the plain names are kept and the refresh
 * cookie is sent to `/api/auth` only.
 */
export function authCookieNames(secure: boolean): AuthCookieNames {
  const prefix = secure ? '__Host-' : '';
  return {
    access: `${prefix}${ACCESS_COOKIE}`,
    refresh: `${prefix}${REFRESH_COOKIE}`,
    hint: `${prefix}${SESSION_HINT_COOKIE}`,
    refreshPath: secure ? '/' : '/api/auth',
  };
}

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
