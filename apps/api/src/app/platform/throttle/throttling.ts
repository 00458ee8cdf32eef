import type { DynamicModule, ExecutionContext } from '@nestjs/common';
import {
  ThrottlerModule,
  type ThrottlerLimitDetail,
  type ThrottlerOptions,
} from '@nestjs/throttler';
import type { AuthUser } from '../common/auth-user';
import type { AppConfig } from '../config/app-config';
import type { ThrottlerName } from '../common/throttled-by.decorator';
import { SharedThrottlerStorage } from './shared-throttler-storage';
import { clientNetwork } from '../common/client-network';
import { ThrottleStore, ThrottleStoreModule } from './throttle-store';

/** The 429 text of a throttle whose client may try again within a minute. */
export const WAIT_A_MINUTE = 'Too many attempts. Please wait a minute and try again.';

/**
 * The 429 text for a client refused for `waitSeconds` more seconds: {@link WAIT_A_MINUTE} up to a
 * minute, else 'Too many attempts. Try again in N minutes.' (N rounded up), e.g. for the Mindbody
 * credential check (issue 11), which the integrations wizard shows as it comes.
 */
export function tooManyAttemptsMessage(waitSeconds: number): string {
  if (waitSeconds <= 60) return WAIT_A_MINUTE;
  return `Too many attempts. Try again in ${Math.ceil(waitSeconds / 60)} minutes.`;
}

/** The business of the signed-in caller (the Mindbody and CSV routes run behind the JWT guard). */
function businessOf(request: Record<string, unknown>): string {
  const user = request['user'] as AuthUser | undefined;
  return user ? `business:${user.businessId}` : `address:${String(request['ip'])}`;
}

/** The client a request counts for: its address (`req.ip`) as `clientNetwork` reads it (an IPv6 one by its /64 network). */
export function clientAddress(request: Record<string, unknown>): string {
  return clientNetwork(String(request['ip'] ?? ''));
}

/** The counter key of the 'login' throttler for a request (`LoginThrottle` gives a success's hit back). */
export function loginThrottleKey(request: Record<string, unknown>): string {
  return `login-${clientAddress(request)}`;
}

/**
 * `@nestjs/throttler` with every named throttler (`THROTTLER_NAMES`) and its counters in
 * PostgreSQL, or Redis when REDIS_URL is set (`ThrottleStore`), shared by every API instance
 * (`SharedThrottlerStorage`):
 * - 'auth', 'login', 'password-reset', 'referral', 'contact', 'support': per client address
 *   (`req.ip`, the X-Forwarded-For client only behind proxies TRUST_PROXY trusts), THROTTLE_*_LIMIT
 *   per 60 s ('referral' counts the JSON join and the join page's form together; 'login' counts
 *   each attempt and `LoginThrottle` gives a successful one back, so failed logins alone count;
 *   'password-reset' counts asking for a link and using one together);
 * - 'mindbody-business' and 'mindbody-address': integration credential checks (Mindbody's
 *   credentials, a gym's Stripe restricted key; each route counted apart) per business and per
 *   client address, THROTTLE_MINDBODY_CREDENTIALS_LIMIT per THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS;
 * - 'csv-upload': member CSV uploads per business, THROTTLE_CSV_UPLOAD_LIMIT per hour;
 * - 'billing': Stripe Checkout and Customer Portal sessions per business, THROTTLE_BILLING_LIMIT
 *   per hour (each is a call to Stripe, whose rate limit every business shares).
 * A client over a limit is refused (429, {@link tooManyAttemptsMessage}) for one window.
 * THROTTLE_DISABLED switches all of them off.
 */
export function throttlingModule(config: AppConfig): DynamicModule {
  const minute = 60_000;
  const credentials = config.throttleMindbodyCredentials;
  const window = credentials.windowSeconds * 1000;
  const throttlers: Record<ThrottlerName, Omit<ThrottlerOptions, 'name'>> = {
    auth: { ttl: minute, limit: config.throttleLoginLimit },
    login: {
      ttl: minute,
      limit: config.throttleLoginLimit,
      getTracker: clientAddress,
      generateKey: (_context, tracker, name) => `${name}-${tracker}`,
    },
    'password-reset': {
      ttl: minute,
      limit: config.throttlePasswordResetLimit,
      generateKey: (_context, tracker, name) => `${name}-${tracker}`,
    },
    // One count per client for the JSON join and the join page's form POST (both join).
    referral: {
      ttl: minute,
      limit: config.throttleReferralLimit,
      generateKey: (_context, tracker, name) => `${name}-${tracker}`,
    },
    contact: { ttl: minute, limit: config.throttleContactLimit },
    support: { ttl: minute, limit: config.throttleSupportLimit },
    'mindbody-business': { ttl: window, limit: credentials.limit, getTracker: businessOf },
    'mindbody-address': { ttl: window, limit: credentials.limit },
    'csv-upload': {
      ttl: 60 * minute,
      limit: config.throttleCsvUploadLimit,
      getTracker: businessOf,
    },
    // One count per business for Checkout and the portal together.
    billing: {
      ttl: 60 * minute,
      limit: config.throttleBillingLimit,
      getTracker: businessOf,
      generateKey: (_context, tracker, name) => `${name}-${tracker}`,
    },
  };
  return ThrottlerModule.forRootAsync({
    imports: [ThrottleStoreModule],
    inject: [ThrottleStore],
    useFactory: (store: ThrottleStore) => ({
      throttlers: Object.entries(throttlers).map(([name, throttler]) => ({ name, ...throttler })),
      skipIf: () => config.throttleDisabled,
      errorMessage: (_context: ExecutionContext, detail: ThrottlerLimitDetail) =>
        tooManyAttemptsMessage(detail.timeToBlockExpire),
      storage: new SharedThrottlerStorage(store.createLimiter, {
        countLocallyWhenDown: store.countLocallyWhenDown,
      }),
    }),
  });
}
