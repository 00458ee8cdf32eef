import { applyDecorators, UseGuards, type CanActivate, type Type } from '@nestjs/common';
import { SkipThrottle, ThrottlerGuard } from '@nestjs/throttler';

/**
 * The named throttlers `app.module.ts` registers: 'auth' (login, signup), 'referral' (public
 * join), 'contact' (contact form, leads) and 'support' (issue form).
 */
export const THROTTLER_NAMES = ['auth', 'referral', 'contact', 'support'] as const;

export type ThrottlerName = (typeof THROTTLER_NAMES)[number];

/**
 * Throttles a route by the named throttler only: applies `ThrottlerGuard` (first, then any
 * `guards` in order) and skips every other throttler name.
 */
export function ThrottledBy(name: ThrottlerName, ...guards: Type<CanActivate>[]): MethodDecorator & ClassDecorator {
  const skip = Object.fromEntries(THROTTLER_NAMES.filter((other) => other !== name).map((other) => [other, true]));
  return applyDecorators(UseGuards(ThrottlerGuard, ...guards), SkipThrottle(skip));
}
