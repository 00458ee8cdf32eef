import { EnvBool, EnvInt } from '../common/config/env-section';

/**
 * The data-rights and verified-sender variables (issue 34 items 4 and 6,
 * docs/product.md#data-rights, docs/product.md#verified-senders). In platform because two areas
 * read them: owner (the export) and member (the daily cap of member emails).
 */
export class DataRightsEnv {
  /** The largest export ZIP Grove keeps, megabytes (MiB); a bigger one fails with a message. */
  @EnvInt(1, 10_000)
  DATA_EXPORT_MAX_MB = 200;

  /** Hours an export stays downloadable; then its file is deleted. */
  @EnvInt(1, 168)
  DATA_EXPORT_EXPIRY_HOURS = 24;

  /** Exports a business may start per 24 hours (one runs at a time); the next one gets 429. */
  @EnvInt(1, 100)
  DATA_EXPORT_DAILY_LIMIT = 5;

  /** Emails to members one business may send per UTC day; past it they wait for the next day. */
  @EnvInt(1, 1_000_000)
  MEMBER_EMAIL_DAILY_CAP = 2_000;

  /** true: Grove emails members for a business only once an owner verified their email (new businesses); false: no such wait (tests). */
  @EnvBool()
  SENDER_VERIFICATION = true;
}

/** The data-rights settings of `AppConfig`. */
export interface DataRightsSettings {
  /** The largest export kept, bytes. */
  exportMaxBytes: number;
  /** How long an export stays downloadable, seconds. */
  exportExpirySeconds: number;
  /** Exports a business may start per 24 hours. */
  exportDailyLimit: number;
  /** Member emails one business may send per UTC day. */
  memberEmailDailyCap: number;
  /** Whether member emails wait until an owner verified their email. */
  senderVerification: boolean;
}

/** `AppConfig.dataRights` from the validated variables. */
export function readDataRightsConfig(vars: DataRightsEnv): { dataRights: DataRightsSettings } {
  return {
    dataRights: {
      exportMaxBytes: vars.DATA_EXPORT_MAX_MB * 1024 * 1024,
      exportExpirySeconds: vars.DATA_EXPORT_EXPIRY_HOURS * 3600,
      exportDailyLimit: vars.DATA_EXPORT_DAILY_LIMIT,
      memberEmailDailyCap: vars.MEMBER_EMAIL_DAILY_CAP,
      senderVerification: vars.SENDER_VERIFICATION,
    },
  };
}
