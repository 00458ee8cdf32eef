import { createSecretKey, type KeyObject } from 'node:crypto';
import type { readAuthConfig } from '../auth/auth.config';
import type { BillingSection } from '../billing/billing.config';
import type { readCaptchaConfig } from '../captcha/captcha.config';
import type { readDatabaseConfig } from '../database/database.config';
import type { readMailConfig } from '../mail/mail.config';
import type { readMetricsConfig } from '../metrics/metrics.config';
import type { readThrottleConfig } from '../throttle/throttle.config';
import type { readWebConfig } from '../web/web.config';
import type { readServerConfig } from './server.config';
import type { readDataRightsConfig } from './data-rights.config';

type ServerSettings = ReturnType<typeof readServerConfig>;
type DatabaseSettings = ReturnType<typeof readDatabaseConfig>;
type AuthSettings = ReturnType<typeof readAuthConfig>;
type ThrottleSettings = ReturnType<typeof readThrottleConfig>;
type WebSettings = ReturnType<typeof readWebConfig>;
type CaptchaSection = ReturnType<typeof readCaptchaConfig>;
type MailSection = ReturnType<typeof readMailConfig>;
type MetricsSettings = ReturnType<typeof readMetricsConfig>;
type DataRightsSection = ReturnType<typeof readDataRightsConfig>;

/**
 * Every setting of `AppConfig`, by name, as the modules' `read…Config` functions build them
 * (documented there). Platform's sections are listed here; an area above platform adds its own
 * section by declaration merging in its `*.config.ts`
 * (`declare module '…/platform/config/app-config' { interface AppSettingsMap extends … {} }`),
 * so platform names no area above it. The root `app-config.ts` validates the environment and
 * assembles every section (docs/architecture.md#api-areas).
 */
export interface AppSettingsMap
  extends
    ServerSettings,
    DatabaseSettings,
    AuthSettings,
    ThrottleSettings,
    WebSettings,
    CaptchaSection,
    MailSection,
    MetricsSettings,
    BillingSection,
    DataRightsSection {}

/** What `AppConfig` takes for a setting left out (or undefined): see `AppConfig.useDefaults`. */
let defaultSettings: Partial<AppSettingsMap> = {};

// The fields are the settings (declared once, by the modules' read functions); the class adds
// the derived getters and makes the configuration injectable by its type.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface AppConfig extends Readonly<AppSettingsMap> {}

/**
 * The validated configuration every module reads (injectable by its class). Each property is the
 * setting of the same name (documented by the module's `read…Config`). Built by the root's
 * `loadAppConfig` (from the environment) or directly by tests; a setting left out takes the
 * default registered by the root (`DEFAULT_APP_SETTINGS` in `app-config.ts`).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AppConfig {
  /**
   * Registers the value of every optional setting (called once by the root `app-config.ts`,
   * which knows every area's section).
   * @param defaults settings by name
   */
  static useDefaults(defaults: Partial<AppSettingsMap>): void {
    defaultSettings = defaults;
  }

  /** @param settings settings by name; one left out (or undefined) takes its registered default */
  constructor(settings: Partial<AppSettingsMap>) {
    Object.assign(this, defaultSettings);
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
