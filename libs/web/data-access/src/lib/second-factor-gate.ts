import { SECOND_FACTOR_MESSAGES } from '@grove/contracts';
import { ApiError } from './api-client';

/**
 * The business's second-factor requirement, seen from the web (issue 34, docs/product.md#second-factor):
 * while it holds for a member of staff without one, the API answers every route but the Security
 * ones 403 'Your business asks everyone to use a second factor…' (`SecondFactorGate`). The API
 * client announces each such reply here, once, whatever screen sent the request; the shell's
 * `RequireSession` listens and sends the person to Account Settings' Security with that message,
 * so no screen has to handle it.
 */
const listeners = new Set<() => void>();

/** True when `error` is the API's 403 for a second factor the business requires. */
export function isSecondFactorMissing(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 403 &&
    error.message === SECOND_FACTOR_MESSAGES.setupRequired
  );
}

/** Tells every listener when `error` is the requirement's 403 (called by the API client). */
export function announceSecondFactorMissing(error: unknown): void {
  if (isSecondFactorMissing(error)) for (const listener of [...listeners]) listener();
}

/**
 * Calls `listener` on every 403 of the requirement from now on.
 * @returns stops listening
 */
export function onSecondFactorMissing(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
