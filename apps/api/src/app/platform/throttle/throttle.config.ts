import { IsOptional } from 'class-validator';
import { EnvBool, EnvInt, EnvUrl } from '../common/config/env-section';

/** The throttling environment variables (limits are per client per 60 s unless said otherwise; the next request gets 429). */
export class ThrottleEnv {
  /**
   * Failed logins allowed per client per 60 s (a successful login does not count), and signups and
   * password changes per client per 60 s.
   */
  @EnvInt(1)
  THROTTLE_LOGIN_LIMIT = 5;

  /** Password reset requests and uses (`POST /api/auth/password-reset`, `…/confirm`) per client per 60 s. */
  @EnvInt(1)
  THROTTLE_PASSWORD_RESET_LIMIT = 5;

  /** Referral join attempts allowed per client per 60 s. */
  @EnvInt(1)
  THROTTLE_REFERRAL_LIMIT = 10;

  /** Contact form and lead submissions (`POST /api/contact`, `/api/leads`) per client per 60 s. */
  @EnvInt(1)
  THROTTLE_CONTACT_LIMIT = 5;

  /** Issue reports (`POST /api/support/issues`) per client per 60 s. */
  @EnvInt(1)
  THROTTLE_SUPPORT_LIMIT = 5;

  /**
   * Mindbody credential checks (`POST /api/mindbody/credentials`) allowed per business and,
   * separately, per client address in each window (issue 11); the same limit, counted apart,
   * for a gym's Stripe key checks (`PUT /api/stripe-members/credentials`, issue 32).
   */
  @EnvInt(1)
  THROTTLE_MINDBODY_CREDENTIALS_LIMIT = 5;

  /** The window of THROTTLE_MINDBODY_CREDENTIALS_LIMIT, seconds (a client over it waits this long). */
  @EnvInt(1)
  THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS = 900;

  /**
   * Member CSV uploads (`POST /api/members-csv/imports`) allowed per business per hour (issue 31:
   * each is parsed and kept a day, so one owner cannot fill the database or the API's time).
   */
  @EnvInt(1)
  THROTTLE_CSV_UPLOAD_LIMIT = 10;

  /**
   * Stripe Checkout and Customer Portal sessions (`POST /api/billing/checkout`, `…/portal`) allowed
   * per business per hour: each calls Stripe, whose API rate limit is Grove's, shared by every
   * business (issue 30).
   */
  @EnvInt(1)
  THROTTLE_BILLING_LIMIT = 20;

  /**
   * Webhook deliveries with a wrong signature (`POST /api/mindbody/webhooks`) allowed per client
   * address per 60 s; signed deliveries never count (issue 31 item 6).
   */
  @EnvInt(1)
  THROTTLE_WEBHOOK_SIGNATURE_LIMIT = 30;

  /**
   * Failed logins allowed per account (its email, whatever the client address) in
   * THROTTLE_ACCOUNT_LOGIN_WINDOW_SECONDS (issue 34, ASVS 2.2.1: guesses spread over many
   * addresses); past it the account's sign-in pauses for the window, its owner is emailed once, and
   * a password reset lifts the pause.
   */
  @EnvInt(1)
  THROTTLE_ACCOUNT_LOGIN_LIMIT = 10;

  /** The window of THROTTLE_ACCOUNT_LOGIN_LIMIT, and how long a paused sign-in stays paused, seconds. */
  @EnvInt(1)
  THROTTLE_ACCOUNT_LOGIN_WINDOW_SECONDS = 900;

  /** Switches every throttle (login, signup, referral join, contact, leads, support, Mindbody credential checks, CSV uploads, billing sessions, wrong webhook signatures) off, e.g. for benchmarks. */
  @EnvBool()
  THROTTLE_DISABLED = false;

  /**
   * `redis://[user:pass@]host:port[/db]` or `rediss://…`: the throttle counters live in this Redis
   * instead of PostgreSQL's `throttle_counters` (every API instance must use the same one).
   */
  @EnvUrl(['redis', 'rediss'])
  @IsOptional()
  REDIS_URL?: string;
}

/** The throttling settings of `AppConfig` from the validated variables. */
export function readThrottleConfig(vars: ThrottleEnv): {
  throttleLoginLimit: number;
  /** Password reset requests and uses per client per minute (throttler 'password-reset'). */
  throttlePasswordResetLimit: number;
  throttleReferralLimit: number;
  /** Contact/lead submissions per client per minute (throttler 'contact'). */
  throttleContactLimit: number;
  /** Issue reports per client per minute (throttler 'support'). */
  throttleSupportLimit: number;
  /** Mindbody credential checks allowed per business and per client address in each window. */
  throttleMindbodyCredentials: { limit: number; windowSeconds: number };
  /** Member CSV uploads allowed per business per hour (throttler 'csv-upload'). */
  throttleCsvUploadLimit: number;
  /** Checkout and portal sessions per business per hour (throttler 'billing'). */
  throttleBillingLimit: number;
  /** Wrong webhook signatures allowed per client address per minute (`FailedSignatureThrottle`). */
  throttleWebhookSignatureLimit: number;
  /** Failed logins allowed per account in each window (`LoginThrottle.countAccountAttempt`). */
  throttleAccountLogin: { limit: number; windowSeconds: number };
  /** True: no request is throttled (THROTTLE_DISABLED). */
  throttleDisabled: boolean;
  /** Redis of the throttle counters (REDIS_URL), or null to keep them in PostgreSQL. */
  redisUrl: string | null;
} {
  return {
    throttleLoginLimit: vars.THROTTLE_LOGIN_LIMIT,
    throttlePasswordResetLimit: vars.THROTTLE_PASSWORD_RESET_LIMIT,
    throttleReferralLimit: vars.THROTTLE_REFERRAL_LIMIT,
    throttleContactLimit: vars.THROTTLE_CONTACT_LIMIT,
    throttleSupportLimit: vars.THROTTLE_SUPPORT_LIMIT,
    throttleMindbodyCredentials: {
      limit: vars.THROTTLE_MINDBODY_CREDENTIALS_LIMIT,
      windowSeconds: vars.THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS,
    },
    throttleCsvUploadLimit: vars.THROTTLE_CSV_UPLOAD_LIMIT,
    throttleBillingLimit: vars.THROTTLE_BILLING_LIMIT,
    throttleWebhookSignatureLimit: vars.THROTTLE_WEBHOOK_SIGNATURE_LIMIT,
    throttleAccountLogin: {
      limit: vars.THROTTLE_ACCOUNT_LOGIN_LIMIT,
      windowSeconds: vars.THROTTLE_ACCOUNT_LOGIN_WINDOW_SECONDS,
    },
    throttleDisabled: vars.THROTTLE_DISABLED,
    redisUrl: vars.REDIS_URL ?? null,
  };
}
