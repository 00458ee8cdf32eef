import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { EnvInt, EnvUrl } from '../common/config/env-section';

/**
 * Grove's own bill (issue 30, docs/product.md#billing, docs/stripe.md#grove-billing): whether
 * Grove bills the businesses it serves, on which Stripe account, and how long a business may owe.
 */
export class BillingEnv {
  /**
   * `on`: businesses pay Grove's plan once their free members have arrived (Stripe keys
   * required in production). `off`: an operator running Grove for their own gym; no Billing
   * section, nothing ever pauses.
   */
  @IsIn(['on', 'off'])
  GROVE_BILLING: 'on' | 'off' = 'on';

  /** Days a business may owe (no card after its free members, or a failed payment) before approvals, imports and bill writes pause. */
  @EnvInt(0, 90)
  BILLING_GRACE_DAYS = 14;

  /** Secret. Stripe secret key (`sk_live_…`, `sk_test_…`, or a restricted `rk_…`); unset in development = the Stripe stand-in `npm start` runs. */
  @IsString()
  @Matches(/^(sk|rk)_(live|test)_\w+$/, {
    message: 'STRIPE_SECRET_KEY must look like sk_live_…, sk_test_… or rk_…',
  })
  @IsOptional()
  STRIPE_SECRET_KEY?: string;

  /** Secret. The webhook endpoint's signing secret (`whsec_…`) for `POST /api/billing/stripe-webhook`. */
  @IsString()
  @Matches(/^whsec_\w+$/, { message: 'STRIPE_WEBHOOK_SECRET must look like whsec_…' })
  @IsOptional()
  STRIPE_WEBHOOK_SECRET?: string;

  /**
   * The Stripe Price of Grove's plan per currency, `usd:price_…` separated by commas (e.g.
   * `usd:price_1Abc,aud:price_2Def`); a business pays in its own currency when a price is listed
   * for it, else in the first one.
   */
  @IsString()
  @Matches(/^[a-z]{3}:price_\w+(,[a-z]{3}:price_\w+)*$/, {
    message: 'STRIPE_PRICES must be currency:price_id pairs, e.g. usd:price_1Abc,aud:price_2Def',
  })
  @IsOptional()
  STRIPE_PRICES?: string;

  /** Where Stripe's API answers: Stripe itself unless set (the stand-in's URL in development and tests). */
  @EnvUrl()
  @IsOptional()
  STRIPE_API_URL?: string;
}

/** How Grove reaches Stripe: the SDK's key and, for the stand-in, host, port and protocol. */
export interface StripeConnection {
  secretKey: string;
  webhookSecret: string;
  /** Price id by lower-case ISO 4217 currency, in the order configured (the first is the fallback). */
  prices: ReadonlyMap<string, string>;
  /** Set when STRIPE_API_URL is: the SDK's `host`, `port` and `protocol` options. */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

/** `AppConfig.billing`. */
export interface BillingSettings {
  /** False when GROVE_BILLING=off. */
  enabled: boolean;
  /** Seconds a business may owe before it pauses (BILLING_GRACE_DAYS × 86,400). */
  graceSeconds: number;
  /** Null until STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICES are all set. */
  stripe: StripeConnection | null;
  /**
   * Where Stripe's API answers for every Stripe client, also the gyms' own accounts (issue 32):
   * STRIPE_API_URL's `host`/`port`/`protocol`, or null for Stripe itself.
   */
  stripeApi: StripeConnection['api'];
}

/** Reads `currency:price` pairs (validated by `BillingEnv`). */
function readPrices(value: string | undefined): Map<string, string> {
  const prices = new Map<string, string>();
  for (const pair of (value ?? '').split(',').filter(Boolean)) {
    const [currency, price] = pair.split(':');
    if (!prices.has(currency)) prices.set(currency, price);
  }
  return prices;
}

/** The SDK's connection options for STRIPE_API_URL (a port defaults to the protocol's). */
function readApi(url: string | undefined): StripeConnection['api'] {
  if (!url) return null;
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  const port = parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443;
  return { host: parsed.hostname, port, protocol };
}

/** `AppConfig.billing` from the section's variables. */
export function readBillingConfig(vars: BillingEnv): { billing: BillingSettings } {
  const prices = readPrices(vars.STRIPE_PRICES);
  const stripe =
    vars.STRIPE_SECRET_KEY && vars.STRIPE_WEBHOOK_SECRET && prices.size > 0
      ? {
          secretKey: vars.STRIPE_SECRET_KEY,
          webhookSecret: vars.STRIPE_WEBHOOK_SECRET,
          prices,
          api: readApi(vars.STRIPE_API_URL),
        }
      : null;
  return {
    billing: {
      enabled: vars.GROVE_BILLING === 'on',
      graceSeconds: vars.BILLING_GRACE_DAYS * 86_400,
      stripe,
      stripeApi: readApi(vars.STRIPE_API_URL),
    },
  };
}

/**
 * What stops production from starting with billing on (issue 30: "a missing Stripe key or price
 * stops the start with a clear message").
 * @returns one line per problem; empty when billing is off, complete, or not production
 */
export function productionBillingProblems(vars: BillingEnv, production: boolean): string[] {
  if (!production || vars.GROVE_BILLING === 'off') return [];
  const missing = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICES'].filter(
    (name) => !vars[name as keyof BillingEnv],
  );
  return missing.map(
    (name) =>
      `${name} is required when NODE_ENV=production and GROVE_BILLING=on (Grove bills businesses on Stripe: docs/operations.md#billing); set GROVE_BILLING=off to run Grove without billing`,
  );
}

/** This section's settings, as `readBillingConfig` builds them. */
export type BillingSection = ReturnType<typeof readBillingConfig>;
