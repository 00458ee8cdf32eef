import type {} from 'altcha';
import { CrossOriginWorker } from './cross-origin-worker';

/**
 * Loads the altcha widget (`<altcha-widget>`) for the public forms' captcha, CSP-friendly: the
 * `altcha/external` build with its stylesheet, and its proof-of-work workers served as Grove's own
 * files (same origin) instead of the default build's `blob:` workers, which the API's
 * Content-Security-Policy (`script-src 'self'`, no `worker-src blob:`) refuses. With the remote on
 * another origin they start through `CrossOriginWorker`.
 * Resolves once the custom element is defined.
 */
export async function loadAltcha(): Promise<void> {
  await Promise.all([import('altcha/external'), import('altcha/altcha.css')]);
  const pbkdf2 = () => new CrossOriginWorker(new URL('altcha/workers/pbkdf2', import.meta.url));
  const sha = () => new CrossOriginWorker(new URL('altcha/workers/sha', import.meta.url));
  for (const algorithm of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512']) {
    globalThis.$altcha.algorithms.set(algorithm, pbkdf2);
  }
  for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512']) {
    globalThis.$altcha.algorithms.set(algorithm, sha);
  }
}
