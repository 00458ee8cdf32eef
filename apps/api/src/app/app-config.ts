import { AuthEnv, readAuthConfig } from './platform/auth/auth.config';
import {
  BillingEnv,
  productionBillingProblems,
  readBillingConfig,
} from './platform/billing/billing.config';
import { CaptchaEnv, hasOtherCaptcha, readCaptchaConfig } from './platform/captcha/captcha.config';
import { DatabaseEnv, readDatabaseConfig } from './platform/database/database.config';
import { DataRightsEnv, readDataRightsConfig } from './platform/config/data-rights.config';
import { FraudEnv, readFraudConfig } from './referral/fraud/fraud.config';
import { MailEnv, productionMailProblems, readMailConfig } from './platform/mail/mail.config';
import { MemberAuthEnv, readMemberAuthConfig } from './member/member-auth/member-auth.config';
import {
  readReferralNudgesConfig,
  ReferralNudgesEnv,
} from './member/referral-nudges/referral-nudges.config';
import { MetricsEnv, readMetricsConfig } from './platform/metrics/metrics.config';
import { MindbodyEnv, readMindbodyConfig } from './integrations/mindbody/mindbody.config';
import { JiraEnv, readJiraConfig } from './owner/support/jira.config';
import { ThrottleEnv, readThrottleConfig } from './platform/throttle/throttle.config';
import { readWebConfig, WebEnv } from './platform/web/web.config';
import { validateSections } from './platform/common/config/env-section';
import { assertProductionSecrets } from './platform/common/production-secrets';
import { AppConfig, type AppSettingsMap } from './platform/config/app-config';
import {
  productionServerProblems,
  readServerConfig,
  ServerEnv,
} from './platform/config/server.config';

// Types and helpers that moved next to their modules, still importable from here.
export type { CaptchaSettings } from './platform/captcha/captcha.config';
export type { DatabaseTimeouts } from './platform/database/database.config';
export type { MailSettings } from './platform/mail/mail.config';
export type { MindbodyConfig } from './integrations/mindbody/mindbody.config';
export type { JiraSettings, RetrySettings } from './owner/support/jira.config';
export { defaultRemoteUrl, remoteUrlVariable } from './platform/web/web.config';
export { parseTrustProxy, type TrustProxy } from './platform/common/trust-proxy';
export { AppConfig };

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
  MetricsEnv,
  BillingEnv,
  DataRightsEnv,
  ReferralNudgesEnv,
] as const;

/**
 * Validates `env` section by section and builds every setting, each section by its own module.
 * @param warn true: log which secrets are random per process
 * @throws Error 'Invalid configuration:' listing every invalid variable (the API refuses to start)
 */
function readSettings(env: Record<string, string | undefined>, cwd: string, warn: boolean) {
  const [
    server,
    database,
    auth,
    throttle,
    web,
    mindbody,
    captcha,
    mail,
    jira,
    fraud,
    memberAuth,
    metrics,
    billing,
    dataRights,
    referralNudges,
  ] = validateSections(ENV_SECTIONS, env);
  const production = server.NODE_ENV === 'production';
  if (production)
    assertProductionSecrets({ ...auth, ...captcha, ...mindbody }, hasOtherCaptcha(captcha), [
      ...productionServerProblems(server),
      ...productionMailProblems(mail, production),
      ...productionBillingProblems(billing, production),
    ]);
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
    ...readMetricsConfig(metrics),
    ...readBillingConfig(billing),
    ...readDataRightsConfig(dataRights),
    ...readReferralNudgesConfig(referralNudges),
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
AppConfig.useDefaults(DEFAULT_APP_SETTINGS);

// Every section `readSettings` assembles is declared in `AppSettingsMap` (platform's own, the
// other areas' by declaration merging), and nothing else is: a section missing from either side
// fails to compile here.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const SETTINGS_DECLARED: Exactly<Settings, AppSettingsMap> = true;
void SETTINGS_DECLARED;

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
