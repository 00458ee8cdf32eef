import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { REMOTE_NAMES, type RemoteName } from '@grove/contracts';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  ValidateBy,
  validateSync,
} from 'class-validator';
import { productionSecretProblems } from './production-secrets';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  if (/^(true|1|yes)$/i.test(value.trim())) return true;
  if (/^(false|0|no)$/i.test(value.trim())) return false;
  return value;
};

/**
 * The API's environment, validated at start-up (class-validator). Read it by injecting `AppConfig`.
 * Times are in seconds unless the name ends in `_MS`; everything has a safe default except
 * `DATABASE_URL`.
 */
export class EnvironmentVariables {
  @IsIn(['development', 'production', 'test'])
  @IsOptional()
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** `postgres://user:pass@host:port/db` (required). */
  @IsString()
  @MinLength(1)
  DATABASE_URL!: string;

  /**
   * Milliseconds to open a database connection (TCP + startup) or to wait for a free pooled one;
   * past it the request answers 503. Applies to every pool (TypeORM, prepared reads, pg-boss).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_CONNECT_TIMEOUT_MS = 5000;

  /**
   * Milliseconds one statement may run: PostgreSQL cancels it past this (`statement_timeout`), and
   * a server that does not answer at all is given up 1 s later (the driver's `query_timeout`); the
   * request answers 503. Migrations are not bounded.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /**
   * Signs access tokens. Required in production (≥ 32 characters, not a placeholder or a value
   * from the repository: `productionSecretProblems`); a random per-process secret otherwise.
   */
  @IsString()
  @MinLength(16)
  @IsOptional()
  JWT_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  ACCESS_TOKEN_TTL_SECONDS = 900;

  /** Absolute lifetime of a session from sign-in; refreshing does not extend it. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  REFRESH_TOKEN_TTL_SECONDS = 2_592_000;

  /** A session not refreshed for this long ends (idle timeout). */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  SESSION_IDLE_TIMEOUT_SECONDS = 604_800;

  /** How long a just-rotated refresh token is still answered (with the session's current state) instead of being treated as reuse. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  REFRESH_REUSE_GRACE_SECONDS = 30;

  /** Comma-separated origins allowed to send unsafe requests besides the API's own origin. */
  @IsString()
  ALLOWED_ORIGINS = '';

  @Transform(toBool)
  @IsBoolean()
  @IsOptional()
  COOKIE_SECURE?: boolean;

  /** Login/signup attempts allowed per client per 60 s; the next one gets 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  THROTTLE_LOGIN_LIMIT = 5;

  /** Referral join attempts allowed per client per 60 s; the next one gets 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  THROTTLE_REFERRAL_LIMIT = 10;

  /** Switches every throttle (login, signup, referral join, contact, leads, support, Mindbody credential checks) off, e.g. for benchmarks. */
  @Transform(toBool)
  @IsBoolean()
  THROTTLE_DISABLED = false;

  /**
   * The reverse proxies / load balancers in front of the API whose `X-Forwarded-For` (client
   * address: throttling, stored `client_ip`, logs), `X-Forwarded-Proto` and `X-Forwarded-Host`
   * (the request's own origin) are believed: a hop count (`1` = the one proxy directly in front),
   * or a comma-separated list of addresses, CIDR ranges and `loopback` / `linklocal` /
   * `uniquelocal`. Unset: none, the connecting socket is the client. See `parseTrustProxy`.
   */
  @ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseTrustProxy(value) !== null,
      defaultMessage: () =>
        "TRUST_PROXY must be a hop count (0, 1, 2, …) or a comma-separated list of IP addresses, CIDR ranges, 'loopback', 'linklocal' and 'uniquelocal'",
    },
  })
  @IsOptional()
  TRUST_PROXY?: string;

  /**
   * Origin used in referral link URLs (`https://grove.example.com`); when unset, the origin of the
   * request that lists the links (protocol + Host).
   */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @IsOptional()
  PUBLIC_ORIGIN?: string;

  /** Folder holding the built web apps (`shell`, `marketing`, …), relative to the working directory. */
  @IsString()
  WEB_DIST_DIR = 'dist/apps';

  /**
   * Folder of the deployed remote versions (`<name>/<version>/`) and of `current.json`, which says
   * the version of each remote new page loads use (`npm run remote:deploy`), relative to the
   * working directory.
   */
  @IsString()
  REMOTES_DIR = 'dist/remotes';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * True: log lines are human-readable (pino-pretty, one line each) instead of JSON lines.
   * `npm start` (tools/scripts/start.mjs) sets it; `node dist/apps/api/main.js` keeps JSON.
   */
  @Transform(toBool)
  @IsBoolean()
  LOG_PRETTY = false;

  /**
   * Serves the OpenAPI document and Swagger UI at `/api/docs` (ASVS 14.3.2 / 14.5: no API map
   * for everyone in production). Default: on in development and tests, off in production.
   */
  @Transform(toBool)
  @IsBoolean()
  @IsOptional()
  API_DOCS_ENABLED?: boolean;

  @Transform(toBool)
  @IsBoolean()
  GROVE_SEED_DEMO = false;

  /**
   * Base URL of the Mindbody Public API v6 (docs/architecture.md#mindbody). The real one is
   * `https://api.mindbodyonline.com/public/v6`; `npm start` points it at the sandbox it starts
   * when unset. Default: a local sandbox on port 4010.
   */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  MINDBODY_API_URL = 'http://127.0.0.1:4010/public/v6';

  /** Mindbody developer `Api-Key` header; default: the sandbox's key. */
  @IsString()
  @MinLength(1)
  MINDBODY_API_KEY = 'grove-sandbox-key';

  /**
   * Base URL of Mindbody's Webhooks API v1 (subscriptions); default: `<origin of
   * MINDBODY_API_URL>/push/api/v1` (the sandbox's layout). The real one is
   * `https://mb-api.mindbodyonline.com/push/api/v1`.
   */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @IsOptional()
  MINDBODY_WEBHOOKS_URL?: string;

  /**
   * 32 bytes, base64: the AES-256-GCM key of stored Mindbody secrets (password, staff token,
   * webhook signature key). Required in production; a random per-process key otherwise (stored
   * credentials then stop working on restart).
   */
  @IsString()
  @IsOptional()
  MINDBODY_CREDENTIALS_KEY?: string;

  /** Contact form and lead submissions (`POST /api/contact`, `/api/leads`) per client per 60 s; the next one gets 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  THROTTLE_CONTACT_LIMIT = 5;

  /** Issue reports (`POST /api/support/issues`) per client per 60 s; the next one gets 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  THROTTLE_SUPPORT_LIMIT = 5;

  /**
   * Mindbody credential checks (`POST /api/mindbody/credentials`) allowed per business and,
   * separately, per client address in each window; the next one gets 429 (issue 11).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  THROTTLE_MINDBODY_CREDENTIALS_LIMIT = 5;

  /** The window of THROTTLE_MINDBODY_CREDENTIALS_LIMIT, seconds (a client over it waits this long). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS = 900;

  /**
   * `redis://[user:pass@]host:port[/db]` or `rediss://…`: the throttle counters live in this Redis
   * instead of PostgreSQL's `throttle_counters` (every API instance must use the same one).
   */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] })
  @IsOptional()
  REDIS_URL?: string;

  /**
   * Signs altcha challenges (HMAC). Required in production unless reCAPTCHA/Turnstile is
   * configured (≥ 32 characters, not well known: `productionSecretProblems`); a random
   * per-process key otherwise.
   */
  @IsString()
  @MinLength(16)
  @IsOptional()
  ALTCHA_HMAC_KEY?: string;

  /** PBKDF2 iterations per altcha attempt (the widget needs ~256 attempts on average). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  ALTCHA_COST = 5000;

  /** Seconds an altcha challenge stays solvable. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3600)
  ALTCHA_EXPIRES_SECONDS = 300;

  @IsString()
  @IsOptional()
  RECAPTCHA_SITE_KEY?: string;

  @IsString()
  @IsOptional()
  RECAPTCHA_SECRET_KEY?: string;

  /** reCAPTCHA siteverify endpoint (overridable for tests). */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

  @IsString()
  @IsOptional()
  TURNSTILE_SITE_KEY?: string;

  @IsString()
  @IsOptional()
  TURNSTILE_SECRET_KEY?: string;

  /** Turnstile siteverify endpoint (overridable for tests). */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

  /** `smtp://user:pass@host:port` or `smtps://…`; unset = emails go to the `outbox_emails` table. */
  @IsString()
  @IsOptional()
  SMTP_URL?: string;

  /** Sender of Grove's emails. */
  @IsString()
  @MinLength(3)
  MAIL_FROM = 'Grove <no-reply@grove.local>';

  /** Who receives contact messages and leads. */
  @IsString()
  @MinLength(3)
  CONTACT_RECIPIENT = 'hello@grove.local';

  /** Jira Cloud site (`https://your-site.atlassian.net`); issue reports are filed there when all JIRA_* are set. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @IsOptional()
  JIRA_BASE_URL?: string;

  @IsString()
  @IsOptional()
  JIRA_EMAIL?: string;

  @IsString()
  @IsOptional()
  JIRA_API_TOKEN?: string;

  @IsString()
  @IsOptional()
  JIRA_PROJECT_KEY?: string;

  @IsString()
  @MinLength(1)
  JIRA_ISSUE_TYPE = 'Bug';

  /** Retries of a failed Jira call after the first attempt. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(50)
  JIRA_RETRY_LIMIT = 5;

  /** Seconds before the first Jira retry; doubled on each further retry. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  JIRA_RETRY_DELAY_SECONDS = 30;
}

/** Where Grove reaches Mindbody and how it seals the secrets it stores (docs/architecture.md#mindbody). */
export interface MindbodyConfig {
  /** Public API v6 base URL, no trailing slash. */
  apiUrl: string;
  apiKey: string;
  /** Webhooks API base URL, no trailing slash. */
  webhooksUrl: string;
  /** 32-byte AES-256-GCM key for stored secrets. */
  credentialsKey: Buffer;
}

const DEFAULT_MINDBODY_CONFIG: MindbodyConfig = {
  apiUrl: 'http://127.0.0.1:4010/public/v6',
  apiKey: 'grove-sandbox-key',
  webhooksUrl: 'http://127.0.0.1:4010/push/api/v1',
  credentialsKey: randomBytes(32),
};

/**
 * The Mindbody part of the configuration (production requires MINDBODY_CREDENTIALS_KEY:
 * `assertProductionSecrets` runs first).
 * @throws Error when MINDBODY_CREDENTIALS_KEY is not 32 bytes of base64
 */
function mindbodyConfig(vars: EnvironmentVariables): MindbodyConfig {
  const apiUrl = vars.MINDBODY_API_URL.replace(/\/+$/, '');
  const webhooksUrl = (
    vars.MINDBODY_WEBHOOKS_URL ?? new URL('/push/api/v1', apiUrl).toString()
  ).replace(/\/+$/, '');
  let credentialsKey: Buffer;
  if (vars.MINDBODY_CREDENTIALS_KEY) {
    credentialsKey = Buffer.from(vars.MINDBODY_CREDENTIALS_KEY, 'base64');
    if (credentialsKey.length !== 32) {
      throw new Error(
        'Invalid configuration:\n  MINDBODY_CREDENTIALS_KEY must be 32 bytes, base64-encoded',
      );
    }
  } else {
    credentialsKey = randomBytes(32);
    if (vars.NODE_ENV === 'development') {
      Logger.warn(
        'MINDBODY_CREDENTIALS_KEY is not set: using a random per-process key (stored Mindbody credentials stop working on restart)',
        'AppConfig',
      );
    }
  }
  return { apiUrl, apiKey: vars.MINDBODY_API_KEY, webhooksUrl, credentialsKey };
}

/** Captcha settings (docs/product.md#contact-page Contact page; docs/architecture.md#front-end: altcha unless reCAPTCHA/Turnstile keys are set). */
export interface CaptchaSettings {
  provider: 'altcha' | 'recaptcha' | 'turnstile';
  /** HMAC secret that signs altcha challenges. */
  altchaHmacKey: string;
  /** PBKDF2 iterations per altcha attempt. */
  altchaCost: number;
  /** Seconds an altcha challenge stays valid. */
  altchaExpiresSeconds: number;
  /** reCAPTCHA / Turnstile site key, secret and siteverify URL (null for altcha). */
  siteKey: string | null;
  secretKey: string | null;
  verifyUrl: string | null;
}

/** Outgoing email (contact messages, leads). */
export interface MailSettings {
  /** SMTP connection URL, or null to keep emails in the `outbox_emails` table. */
  smtpUrl: string | null;
  from: string;
  contactRecipient: string;
}

/** Jira Cloud REST API v3 settings for issue reports; null in `AppConfig.jira` when not configured. */
export interface JiraSettings {
  /** Site origin without trailing slash, e.g. `https://grove.atlassian.net`. */
  baseUrl: string;
  email: string;
  apiToken: string;
  projectKey: string;
  issueType: string;
}

/** How long the API waits on PostgreSQL (milliseconds); see `databasePoolOptions`. */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one in a pool. */
  connectMs: number;
  /** One statement (`statement_timeout`; the client gives up `STATEMENT_GRACE_MS` later). */
  statementMs: number;
}

/** pg-boss retry settings of the Jira job (seconds; the delay doubles each retry). */
export interface RetrySettings {
  limit: number;
  delaySeconds: number;
}

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

/**
 * Everything `AppConfig` holds, by name (`loadAppConfig` builds it from the environment; tests may
 * build one directly). The optional groups fall back to `DEFAULT_APP_SETTINGS`.
 */
export interface AppSettings {
  nodeEnv: 'development' | 'production' | 'test';
  databaseUrl: string;
  port: number;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Exact origins (`https://host[:port]`), no trailing slash. */
  allowedOrigins: readonly string[];
  cookieSecure: boolean;
  throttleLoginLimit: number;
  /** Absolute path of the web apps' build output. */
  webDistDir: string;
  /** Manifest URL of each remote (`defaultRemoteUrl(name)` unless overridden by `REMOTE_<NAME>_URL`). */
  remoteUrls: Readonly<Record<RemoteName, string>>;
  /** Absolute path of the deployed remote versions and their `current.json` (REMOTES_DIR). */
  remotesDir?: string;
  logLevel: string;
  /** True: human-readable log lines (LOG_PRETTY). */
  logPretty?: boolean;
  seedDemo: boolean;
  /** True: OpenAPI at `/api/docs` (API_DOCS_ENABLED; default off in production). */
  apiDocsEnabled?: boolean;
  throttleReferralLimit?: number;
  /** True: no request is throttled (THROTTLE_DISABLED). */
  throttleDisabled?: boolean;
  /** Origin of referral link URLs (no trailing slash), or null to use the request's own origin. */
  publicOrigin?: string | null;
  /** Mindbody connection (docs/architecture.md#mindbody); see `MindbodyConfig`. */
  mindbody?: MindbodyConfig;
  /** Contact/lead submissions per client per minute (throttler 'contact'). */
  throttleContactLimit?: number;
  /** Issue reports per client per minute (throttler 'support'). */
  throttleSupportLimit?: number;
  /** Mindbody credential checks allowed per business and per client address in each window. */
  throttleMindbodyCredentials?: { limit: number; windowSeconds: number };
  /** Redis of the throttle counters (REDIS_URL), or null to keep them in PostgreSQL. */
  redisUrl?: string | null;
  captcha?: CaptchaSettings;
  mail?: MailSettings;
  /** Jira settings, or null when issue reports are only stored. */
  jira?: JiraSettings | null;
  jiraRetry?: RetrySettings;
  /** Which proxies' X-Forwarded-* headers Express believes (TRUST_PROXY); false: none. */
  trustProxy?: TrustProxy;
  /** Seconds without a refresh after which a session ends (SESSION_IDLE_TIMEOUT_SECONDS). */
  sessionIdleTimeoutSeconds?: number;
  /** Seconds a rotated refresh token is still answered instead of revoking its family (REFRESH_REUSE_GRACE_SECONDS). */
  refreshReuseGraceSeconds?: number;
  /** DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS. */
  databaseTimeouts?: DatabaseTimeouts;
}

/** The settings `AppSettings` may leave out. */
type DefaultedSetting = {
  [K in keyof AppSettings]-?: undefined extends AppSettings[K] ? K : never;
}[keyof AppSettings];

/**
 * What `AppConfig` uses for a setting left out of `AppSettings`. The keys are random per process
 * (as with the unset environment variables in development).
 */
export const DEFAULT_APP_SETTINGS: Readonly<Required<Pick<AppSettings, DefaultedSetting>>> = {
  remotesDir: path.resolve('dist/remotes'),
  logPretty: false,
  apiDocsEnabled: true,
  throttleReferralLimit: 10,
  throttleDisabled: false,
  publicOrigin: null,
  mindbody: DEFAULT_MINDBODY_CONFIG,
  throttleContactLimit: 5,
  throttleSupportLimit: 5,
  throttleMindbodyCredentials: { limit: 5, windowSeconds: 900 },
  redisUrl: null,
  captcha: {
    provider: 'altcha',
    altchaHmacKey: randomBytes(32).toString('base64url'),
    altchaCost: 5000,
    altchaExpiresSeconds: 300,
    siteKey: null,
    secretKey: null,
    verifyUrl: null,
  },
  mail: {
    smtpUrl: null,
    from: 'Grove <no-reply@grove.local>',
    contactRecipient: 'hello@grove.local',
  },
  jira: null,
  jiraRetry: { limit: 5, delaySeconds: 30 },
  trustProxy: false,
  sessionIdleTimeoutSeconds: 604_800,
  refreshReuseGraceSeconds: 30,
  databaseTimeouts: { connectMs: 5000, statementMs: 10_000 },
};

/**
 * The validated configuration every module reads (injectable by its class). Each property is the
 * `AppSettings` field of the same name (documented there), defaulted from `DEFAULT_APP_SETTINGS`.
 */
export class AppConfig implements Readonly<Required<AppSettings>> {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly databaseUrl: string;
  readonly port: number;
  readonly jwtSecret: string;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly allowedOrigins: readonly string[];
  readonly cookieSecure: boolean;
  readonly throttleLoginLimit: number;
  readonly webDistDir: string;
  readonly remoteUrls: Readonly<Record<RemoteName, string>>;
  readonly remotesDir: string;
  readonly logLevel: string;
  readonly logPretty: boolean;
  readonly seedDemo: boolean;
  readonly apiDocsEnabled: boolean;
  readonly throttleReferralLimit: number;
  readonly throttleDisabled: boolean;
  readonly publicOrigin: string | null;
  readonly mindbody: MindbodyConfig;
  readonly throttleContactLimit: number;
  readonly throttleSupportLimit: number;
  readonly throttleMindbodyCredentials: { limit: number; windowSeconds: number };
  readonly redisUrl: string | null;
  readonly captcha: CaptchaSettings;
  readonly mail: MailSettings;
  readonly jira: JiraSettings | null;
  readonly jiraRetry: RetrySettings;
  readonly trustProxy: TrustProxy;
  readonly sessionIdleTimeoutSeconds: number;
  readonly refreshReuseGraceSeconds: number;
  readonly databaseTimeouts: DatabaseTimeouts;

  /** @param settings every setting by name; an optional one left out (or undefined) takes its `DEFAULT_APP_SETTINGS` value */
  constructor(settings: AppSettings) {
    const defaults = DEFAULT_APP_SETTINGS;
    this.nodeEnv = settings.nodeEnv;
    this.databaseUrl = settings.databaseUrl;
    this.port = settings.port;
    this.jwtSecret = settings.jwtSecret;
    this.accessTokenTtlSeconds = settings.accessTokenTtlSeconds;
    this.refreshTokenTtlSeconds = settings.refreshTokenTtlSeconds;
    this.allowedOrigins = settings.allowedOrigins;
    this.cookieSecure = settings.cookieSecure;
    this.throttleLoginLimit = settings.throttleLoginLimit;
    this.webDistDir = settings.webDistDir;
    this.remoteUrls = settings.remoteUrls;
    this.remotesDir = settings.remotesDir ?? defaults.remotesDir;
    this.logLevel = settings.logLevel;
    this.logPretty = settings.logPretty ?? defaults.logPretty;
    this.seedDemo = settings.seedDemo;
    this.apiDocsEnabled = settings.apiDocsEnabled ?? defaults.apiDocsEnabled;
    this.throttleReferralLimit = settings.throttleReferralLimit ?? defaults.throttleReferralLimit;
    this.throttleDisabled = settings.throttleDisabled ?? defaults.throttleDisabled;
    this.publicOrigin = settings.publicOrigin ?? defaults.publicOrigin;
    this.mindbody = settings.mindbody ?? defaults.mindbody;
    this.throttleContactLimit = settings.throttleContactLimit ?? defaults.throttleContactLimit;
    this.throttleSupportLimit = settings.throttleSupportLimit ?? defaults.throttleSupportLimit;
    this.throttleMindbodyCredentials =
      settings.throttleMindbodyCredentials ?? defaults.throttleMindbodyCredentials;
    this.redisUrl = settings.redisUrl ?? defaults.redisUrl;
    this.captcha = settings.captcha ?? defaults.captcha;
    this.mail = settings.mail ?? defaults.mail;
    this.jira = settings.jira ?? defaults.jira;
    this.jiraRetry = settings.jiraRetry ?? defaults.jiraRetry;
    this.trustProxy = settings.trustProxy ?? defaults.trustProxy;
    this.sessionIdleTimeoutSeconds =
      settings.sessionIdleTimeoutSeconds ?? defaults.sessionIdleTimeoutSeconds;
    this.refreshReuseGraceSeconds =
      settings.refreshReuseGraceSeconds ?? defaults.refreshReuseGraceSeconds;
    this.databaseTimeouts = settings.databaseTimeouts ?? defaults.databaseTimeouts;
  }

  private secretKey?: KeyObject;

  /**
   * The JWT secret as a `KeyObject`. jsonwebtoken converts a string secret on every sign and
   * verify (trying `createPublicKey` first, which throws); handing it a KeyObject skips that,
   * which measured as 14% of the API's CPU under `npm run bench:members`.
   */
  get jwtKey(): KeyObject {
    this.secretKey ??= createSecretKey(Buffer.from(this.jwtSecret, 'utf8'));
    return this.secretKey;
  }

  /** Origins of remote URLs that point elsewhere (for the CSP), e.g. `https://cdn.example.com`. */
  get remoteOrigins(): string[] {
    const origins = new Set<string>();
    for (const url of Object.values(this.remoteUrls)) {
      if (/^https?:\/\//i.test(url)) origins.add(new URL(url).origin);
    }
    return [...origins];
  }
}

/** The environment variable that points remote `name` elsewhere, e.g. `REMOTE_MARKETING_URL`. */
export function remoteUrlVariable(name: RemoteName): string {
  return `REMOTE_${name.toUpperCase()}_URL`;
}

/** Where the shell loads remote `name` from when nothing overrides it: the API's own copy of its build. */
export function defaultRemoteUrl(name: RemoteName): string {
  return `/remotes/${name}/mf-manifest.json`;
}

/** True for an absolute http(s) URL or a path on Grove's own origin (`/…`, not `//host`). */
function isRemoteUrl(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Validates `env` and builds the AppConfig.
 * @throws Error listing every invalid variable (the API refuses to start)
 */
export function loadAppConfig(
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): AppConfig {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const vars = plainToInstance(EnvironmentVariables, defined);
  const errors = validateSync(vars, { whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (error) => `${error.property}: ${Object.values(error.constraints ?? {}).join(', ')}`,
    );
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const production = vars.NODE_ENV === 'production';
  if (production) assertProductionSecrets(vars);
  let jwtSecret = vars.JWT_SECRET;
  if (!jwtSecret) {
    jwtSecret = randomBytes(32).toString('base64url');
    Logger.warn(
      'JWT_SECRET is not set: using a random per-process secret (sessions end on restart)',
      'AppConfig',
    );
  }
  // The web apps the shell loads at run time (docs/architecture.md#remote-loading); each may be overridden by `REMOTE_<NAME>_URL`.
  const remoteUrls = Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, env[remoteUrlVariable(name)] || defaultRemoteUrl(name)]),
  ) as Record<RemoteName, string>;
  const badRemoteUrls = REMOTE_NAMES.filter((name) => !isRemoteUrl(remoteUrls[name])).map(
    (name) =>
      `${remoteUrlVariable(name)}: must be an http(s) URL or a path starting with / (its mf-manifest.json)`,
  );
  if (badRemoteUrls.length > 0)
    throw new Error(`Invalid configuration:\n  ${badRemoteUrls.join('\n  ')}`);
  const allowedOrigins = vars.ALLOWED_ORIGINS.split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return new AppConfig({
    nodeEnv: vars.NODE_ENV,
    databaseUrl: vars.DATABASE_URL,
    port: vars.PORT,
    jwtSecret,
    accessTokenTtlSeconds: vars.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: vars.REFRESH_TOKEN_TTL_SECONDS,
    allowedOrigins,
    cookieSecure: vars.COOKIE_SECURE ?? production,
    throttleLoginLimit: vars.THROTTLE_LOGIN_LIMIT,
    webDistDir: path.resolve(cwd, vars.WEB_DIST_DIR),
    remoteUrls,
    remotesDir: path.resolve(cwd, vars.REMOTES_DIR),
    logLevel: vars.LOG_LEVEL,
    logPretty: vars.LOG_PRETTY,
    seedDemo: vars.GROVE_SEED_DEMO,
    apiDocsEnabled: vars.API_DOCS_ENABLED ?? !production,
    throttleReferralLimit: vars.THROTTLE_REFERRAL_LIMIT,
    throttleDisabled: vars.THROTTLE_DISABLED,
    publicOrigin: vars.PUBLIC_ORIGIN ? new URL(vars.PUBLIC_ORIGIN).origin : null,
    mindbody: mindbodyConfig(vars),
    throttleContactLimit: vars.THROTTLE_CONTACT_LIMIT,
    throttleSupportLimit: vars.THROTTLE_SUPPORT_LIMIT,
    throttleMindbodyCredentials: {
      limit: vars.THROTTLE_MINDBODY_CREDENTIALS_LIMIT,
      windowSeconds: vars.THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS,
    },
    redisUrl: vars.REDIS_URL ?? null,
    captcha: captchaSettings(vars),
    mail: {
      smtpUrl: vars.SMTP_URL ?? null,
      from: vars.MAIL_FROM,
      contactRecipient: vars.CONTACT_RECIPIENT,
    },
    jira: jiraSettings(vars),
    jiraRetry: { limit: vars.JIRA_RETRY_LIMIT, delaySeconds: vars.JIRA_RETRY_DELAY_SECONDS },
    // Validated above: null cannot come back here.
    trustProxy:
      vars.TRUST_PROXY === undefined ? false : (parseTrustProxy(vars.TRUST_PROXY) ?? false),
    sessionIdleTimeoutSeconds: vars.SESSION_IDLE_TIMEOUT_SECONDS,
    refreshReuseGraceSeconds: vars.REFRESH_REUSE_GRACE_SECONDS,
    databaseTimeouts: {
      connectMs: vars.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: vars.DATABASE_STATEMENT_TIMEOUT_MS,
    },
  });
}

/**
 * Refuses production secrets that are missing, short or well known (`productionSecretProblems`).
 * @throws Error 'Invalid configuration:' with one line per problem (the API refuses to start)
 */
function assertProductionSecrets(vars: EnvironmentVariables): void {
  const otherCaptcha =
    (vars.RECAPTCHA_SITE_KEY && vars.RECAPTCHA_SECRET_KEY) ||
    (vars.TURNSTILE_SITE_KEY && vars.TURNSTILE_SECRET_KEY);
  const problems = productionSecretProblems(
    {
      JWT_SECRET: vars.JWT_SECRET,
      ALTCHA_HMAC_KEY: vars.ALTCHA_HMAC_KEY,
      MINDBODY_CREDENTIALS_KEY: vars.MINDBODY_CREDENTIALS_KEY,
    },
    otherCaptcha
      ? ['JWT_SECRET', 'MINDBODY_CREDENTIALS_KEY']
      : ['JWT_SECRET', 'ALTCHA_HMAC_KEY', 'MINDBODY_CREDENTIALS_KEY'],
  );
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/**
 * The captcha in use: reCAPTCHA when both RECAPTCHA_* keys are set, else Turnstile when both
 * TURNSTILE_* keys are set, else altcha (docs/architecture.md#front-end). Production requires ALTCHA_HMAC_KEY for
 * altcha (`assertProductionSecrets` runs first); elsewhere a random per-process key stands in.
 */
function captchaSettings(vars: EnvironmentVariables): CaptchaSettings {
  let altchaHmacKey = vars.ALTCHA_HMAC_KEY;
  const recaptcha = vars.RECAPTCHA_SITE_KEY && vars.RECAPTCHA_SECRET_KEY;
  const turnstile = vars.TURNSTILE_SITE_KEY && vars.TURNSTILE_SECRET_KEY;
  if (!altchaHmacKey) {
    altchaHmacKey = randomBytes(32).toString('base64url');
    if (!recaptcha && !turnstile) {
      Logger.warn(
        'ALTCHA_HMAC_KEY is not set: using a random per-process key (challenges end on restart)',
        'AppConfig',
      );
    }
  }
  const altcha = {
    altchaHmacKey,
    altchaCost: vars.ALTCHA_COST,
    altchaExpiresSeconds: vars.ALTCHA_EXPIRES_SECONDS,
  };
  if (recaptcha) {
    return {
      provider: 'recaptcha',
      ...altcha,
      siteKey: vars.RECAPTCHA_SITE_KEY ?? null,
      secretKey: vars.RECAPTCHA_SECRET_KEY ?? null,
      verifyUrl: vars.RECAPTCHA_VERIFY_URL,
    };
  }
  if (turnstile) {
    return {
      provider: 'turnstile',
      ...altcha,
      siteKey: vars.TURNSTILE_SITE_KEY ?? null,
      secretKey: vars.TURNSTILE_SECRET_KEY ?? null,
      verifyUrl: vars.TURNSTILE_VERIFY_URL,
    };
  }
  return { provider: 'altcha', ...altcha, siteKey: null, secretKey: null, verifyUrl: null };
}

/** Jira settings when JIRA_BASE_URL, JIRA_EMAIL, JIRA_API_TOKEN and JIRA_PROJECT_KEY are all set, else null. */
function jiraSettings(vars: EnvironmentVariables): JiraSettings | null {
  const { JIRA_BASE_URL, JIRA_EMAIL, JIRA_API_TOKEN, JIRA_PROJECT_KEY } = vars;
  if (!JIRA_BASE_URL || !JIRA_EMAIL || !JIRA_API_TOKEN || !JIRA_PROJECT_KEY) return null;
  return {
    baseUrl: JIRA_BASE_URL.replace(/\/+$/, ''),
    email: JIRA_EMAIL,
    apiToken: JIRA_API_TOKEN,
    projectKey: JIRA_PROJECT_KEY,
    issueType: vars.JIRA_ISSUE_TYPE,
  };
}
