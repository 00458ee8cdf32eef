import { applyDecorators, UseGuards, type CanActivate, type Type } from '@nestjs/common';
import { SkipThrottle, ThrottlerGuard } from '@nestjs/throttler';

/**
 * The named throttlers `throttle/throttling.ts` registers: 'auth' (signup, password change),
 * 'login' (failed logins only), 'password-reset' (asking for a reset link and using one),
 * 'referral' (public join), 'contact' (contact form, leads), 'support' (issue form), and
 * 'mindbody-business' plus 'mindbody-address' (integration credential checks per business and per
 * client address: Mindbody's credentials, a gym's Stripe key; counted per route), 'csv-upload' (member CSV uploads per business) and 'billing' (Stripe Checkout
 * and Customer Portal sessions per business).
 */
export const THROTTLER_NAMES = [
  'auth',
  'login',
  'password-reset',
  'referral',
  'contact',
  'support',
  'mindbody-business',
  'mindbody-address',
  'csv-upload',
  'billing',
] as const;

export type ThrottlerName = (typeof THROTTLER_NAMES)[number];

/**
 * Throttles a route by the named throttler(s) only: applies `ThrottlerGuard` (first, then any
 * `guards` in order) and skips every other throttler name.
 * @param names one throttler name, or several that each count the request
 */
export function ThrottledBy(
  names: ThrottlerName | readonly ThrottlerName[],
  ...guards: Type<CanActivate>[]
): MethodDecorator & ClassDecorator {
  const used: readonly string[] = typeof names === 'string' ? [names] : names;
  const skip = Object.fromEntries(
    THROTTLER_NAMES.filter((other) => !used.includes(other)).map((other) => [other, true]),
  );
  return applyDecorators(UseGuards(ThrottlerGuard, ...guards), SkipThrottle(skip));
}
