import { createSecretKey, type KeyObject } from 'node:crypto';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { AuthEnv, readAuthConfig } from '../auth/auth.config';
import { CaptchaEnv, hasOtherCaptcha, readCaptchaConfig } from '../captcha/captcha.config';
import { DatabaseEnv, readDatabaseConfig } from '../database/database.config';
import { FraudEnv, readFraudConfig } from '../fraud/fraud.config';
import { MailEnv, readMailConfig } from '../mail/mail.config';
import { MemberAuthEnv, readMemberAuthConfig } from '../member-auth/member-auth.config';
import { MindbodyEnv, readMindbodyConfig } from '../mindbody/mindbody.config';
import { JiraEnv, readJiraConfig } from '../support/jira.config';
import { ThrottleEnv, readThrottleConfig } from '../throttle/throttle.config';
import { readWebConfig, WebEnv } from '../web/web.config';
import { EnvBool, EnvInt, EnvUrl, validateSections } from '../common/config/env-section';
import { assertProductionSecrets } from '../common/production-secrets';
import { IsTrustProxy, readTrustProxy } from '../common/trust-proxy';

// Types and helpers that moved next to their modules, still importable from here.
export type { CaptchaSettings } from '../captcha/captcha.config';
export type { DatabaseTimeouts } from '../database/database.config';
export type { MailSettings } from '../mail/mail.config';
export type { MindbodyConfig } from '../mindbody/mindbody.config';
export type { JiraSettings, RetrySettings } from '../support/jira.config';
export { defaultRemoteUrl, remoteUrlVariable } from '../web/web.config';
export { parseTrustProxy, type TrustProxy } from '../common/trust-proxy';

/** The server's own environment variables (the rest are declared by their modules: `ENV_SECTIONS`). */
export class ServerEnv {
  @IsIn(['development', 'production', 'test'])
  @IsOptional()
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** Port of the web app and API. */
  @EnvInt(0, 65535)
  PORT = 3000;

  /** Comma-separated origins allowed to send unsafe requests besides the API's own origin. */
  @IsString()
  ALLOWED_ORIGINS = '';

  /**
   * The reverse proxies / load balancers in front of the API whose `X-Forwarded-For` (client
   * address: throttling, stored `client_ip`, logs), `X-Forwarded-Proto` and `X-Forwarded-Host`
   * (the request's own origin) are believed: a hop count (`1` = the one proxy directly in front),
   * or a comma-separated list of addresses, CIDR ranges and `loopback` / `linklocal` /
   * `uniquelocal`. Unset: none, the connecting socket is the client. See `parseTrustProxy`.
   */
  @IsTrustProxy()
  @IsOptional()
  TRUST_PROXY?: string;

  /**
   * Origin used in referral link URLs (`https://grove.example.com`); when unset, the origin of the
   * request that lists the links (protocol + Host).
   */
  @EnvUrl()
  @IsOptional()
  PUBLIC_ORIGIN?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * True: log lines are human-readable (pino-pretty, one line each) instead of JSON lines.
   * `npm start` (tools/scripts/start.mjs) sets it; `node dist/apps/api/main.js` keeps JSON.
   */
  @EnvBool()
  LOG_PRETTY = false;

  /**
   * Serves the OpenAPI document and Swagger UI at `/api/docs` (ASVS 14.3.2 / 14.5: no API map
   * for everyone in production). Default: on in development and tests, off in production.
   */
  @EnvBool()
  @IsOptional()
  API_DOCS_ENABLED?: boolean;

  /** True: seed the demo business on start. */
  @EnvBool()
  GROVE_SEED_DEMO = false;
}

/**
 * Every class declaring environment variables, in validation order: each variable is declared
 * once, in one of them (name, default, docstring, rules). `REMOTE_<NAME>_URL` is read by
 * `readWebConfig` (one per remote).
 */
export const ENV_SECTIONS = [
  ServerEnv,
  DatabaseEnv,
  AuthEnv,
  ThrottleEnv,
  WebEnv,
  MindbodyEnv,
  CaptchaEnv,
  MailEnv,
  JiraEnv,
  FraudEnv,
  MemberAuthEnv,
] as const;

/** The server's own settings of `AppConfig` from the validated variables. */
function readServerConfig(vars: ServerEnv): {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  /** Exact origins (`https://host[:port]`), no trailing slash. */
  allowedOrigins: readonly string[];
  /** Which proxies' X-Forwarded-* headers Express believes (TRUST_PROXY); false: none. */
  trustProxy: ReturnType<typeof readTrustProxy>;
  /** Origin of referral link URLs (no trailing slash), or null to use the request's own origin. */
  publicOrigin: string | null;
  logLevel: string;
  /** True: human-readable log lines (LOG_PRETTY). */
  logPretty: boolean;
  /** True: OpenAPI at `/api/docs` (API_DOCS_ENABLED; default off in production). */
  apiDocsEnabled: boolean;
  seedDemo: boolean;
} {
  return {
    nodeEnv: vars.NODE_ENV,
    port: vars.PORT,
    allowedOrigins: vars.ALLOWED_ORIGINS.split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    trustProxy: readTrustProxy(vars.TRUST_PROXY),
    publicOrigin: vars.PUBLIC_ORIGIN ? new URL(vars.PUBLIC_ORIGIN).origin : null,
    logLevel: vars.LOG_LEVEL,
    logPretty: vars.LOG_PRETTY,
    apiDocsEnabled: vars.API_DOCS_ENABLED ?? vars.NODE_ENV !== 'production',
    seedDemo: vars.GROVE_SEED_DEMO,
  };
}

/**
 * Validates `env` section by section and builds every setting, each section by its own module.
 * @param warn true: log which secrets are random per process
 * @throws Error 'Invalid configuration:' listing every invalid variable (the API refuses to start)
 */
function readSettings(env: Record<string, string | undefined>, cwd: string, warn: boolean) {
  const [server, database, auth, throttle, web, mindbody, captcha, mail, jira, fraud, memberAuth] =
    validateSections(ENV_SECTIONS, env);
  const production = server.NODE_ENV === 'production';
  if (production)
    assertProductionSecrets({ ...auth, ...captcha, ...mindbody }, hasOtherCaptcha(captcha));
  return {
    ...readServerConfig(server),
    ...readDatabaseConfig(database),
    ...readAuthConfig(auth, production, warn),
    ...readWebConfig(web, env, cwd),
    ...readThrottleConfig(throttle),
    ...readMindbodyConfig(mindbody, warn && server.NODE_ENV === 'development'),
    ...readCaptchaConfig(captcha, warn),
    ...readMailConfig(mail),
    ...readJiraConfig(jira),
    ...readFraudConfig(fraud),
    ...readMemberAuthConfig(memberAuth),
  };
}

/** Every setting, as the modules' `read…Config` functions build them (documented there). */
type Settings = ReturnType<typeof readSettings>;

/** The settings a directly built `AppConfig` must be given; every other one has a default. */
const REQUIRED_SETTINGS = [
  'nodeEnv',
  'databaseUrl',
  'port',
  'jwtSecret',
  'accessTokenTtlSeconds',
  'refreshTokenTtlSeconds',
  'allowedOrigins',
  'cookieSecure',
  'throttleLoginLimit',
  'webDistDir',
  'remoteUrls',
  'logLevel',
  'seedDemo',
] as const satisfies readonly (keyof Settings)[];
type RequiredSetting = (typeof REQUIRED_SETTINGS)[number];

/**
 * Everything `AppConfig` holds, by name (`loadAppConfig` builds it from the environment; tests may
 * build one directly). The optional ones fall back to `DEFAULT_APP_SETTINGS`.
 */
export type AppSettings = Pick<Settings, RequiredSetting> &
  Partial<Omit<Settings, RequiredSetting>>;

/**
 * What `AppConfig` uses for a setting left out of `AppSettings`: the settings of an environment
 * with every variable at its declared default (`NODE_ENV=test`). The keys are random per process
 * (as with the unset environment variables in development).
 */
export const DEFAULT_APP_SETTINGS: Readonly<Omit<Settings, RequiredSetting>> = (() => {
  const defaults: Partial<Settings> = readSettings(
    { NODE_ENV: 'test', DATABASE_URL: 'postgres://defaults' },
    process.cwd(),
    false,
  );
  for (const name of REQUIRED_SETTINGS) delete defaults[name];
  return defaults as Omit<Settings, RequiredSetting>;
})();

// The fields are the settings (declared once, by the modules' read functions); the class adds
// the derived getters and makes the configuration injectable by its type.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface AppConfig extends Readonly<Required<AppSettings>> {}

/**
 * The validated configuration every module reads (injectable by its class). Each property is the
 * setting of the same name (documented by the module's `read…Config`), defaulted from
 * `DEFAULT_APP_SETTINGS`.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AppConfig {
  /** @param settings every setting by name; an optional one left out (or undefined) takes its `DEFAULT_APP_SETTINGS` value */
  constructor(settings: AppSettings) {
    Object.assign(this, DEFAULT_APP_SETTINGS);
    for (const [name, value] of Object.entries(settings)) {
      if (value !== undefined) Object.assign(this, { [name]: value });
    }
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

/**
 * Validates `env` and builds the AppConfig (warning in the log about secrets left random).
 * @param cwd the directory WEB_DIST_DIR and REMOTES_DIR are resolved from
 * @throws Error listing every invalid variable (the API refuses to start)
 */
export function loadAppConfig(
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): AppConfig {
  return new AppConfig(readSettings(env, cwd, true));
}
