import { isIP } from 'node:net';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * Express's `trust proxy` setting (https://expressjs.com/en/guide/behind-proxies.html): `false`
 * trusts no proxy (`req.ip` is the socket's address); a number trusts that many hops in front of
 * the API; a list trusts the proxies at those addresses, CIDR ranges or named ranges
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = false | number | readonly string[];

const TRUST_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** One TRUST_PROXY list entry: a named range, an IPv4/IPv6 address, or address/prefix-length. */
function isTrustProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_RANGES.includes(entry.toLowerCase())) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Parses a TRUST_PROXY value: `'2'` → 2 hops; `'loopback, 10.0.0.0/8,fd00::/8'` →
 * `['loopback', '10.0.0.0/8', 'fd00::/8']` (trimmed, range names lower-cased).
 * `true` (trust every hop, letting any client pick its own address) is deliberately not accepted.
 * @returns the setting for Express, or null when `value` is neither a hop count nor a valid list
 */
export function parseTrustProxy(value: string): number | string[] | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : null;
  const entries = text.split(',').map((entry) => entry.trim());
  if (!entries.every(isTrustProxyEntry)) return null;
  return entries.map((entry) =>
    TRUST_PROXY_RANGES.includes(entry.toLowerCase()) ? entry.toLowerCase() : entry,
  );
}

/** class-validator rule: a value `parseTrustProxy` accepts, else the TRUST_PROXY message. */
export function IsTrustProxy(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTrustProxy',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseTrustProxy(value) !== null,
        defaultMessage: () =>
          "TRUST_PROXY must be a hop count (0, 1, 2, …) or a comma-separated list of IP addresses, CIDR ranges, 'loopback', 'linklocal' and 'uniquelocal'",
      },
    },
    options,
  );
}

/** The TRUST_PROXY setting for Express: unset → `false` (no proxy trusted). Call after validation. */
export function readTrustProxy(value: string | undefined): TrustProxy {
  return value === undefined ? false : (parseTrustProxy(value) ?? false);
}
