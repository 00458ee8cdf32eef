import { IsString, Matches } from 'class-validator';

/** The referral nudges' schedule (issue 33 item 5, docs/product.md#referral-nudges). */
export class ReferralNudgesEnv {
  /**
   * When the nudges job looks for due members (pg-boss cron, 5 fields, UTC). Hourly by default;
   * a journey sets `* * * * *` to see an email within a minute.
   */
  @IsString()
  @Matches(/^\S+( \S+){4}$/, { message: 'REFERRAL_NUDGES_CRON must be a 5-field cron expression' })
  REFERRAL_NUDGES_CRON = '23 * * * *';
}

/** The referral nudges' settings of `AppConfig`. */
export function readReferralNudgesConfig(vars: ReferralNudgesEnv): {
  referralNudges: {
    /** The nudges job's cron (UTC). */
    cron: string;
  };
} {
  return { referralNudges: { cron: vars.REFERRAL_NUDGES_CRON } };
}

/** This section's settings, as `readReferralNudgesConfig` builds them. */
type ReferralNudgesSection = ReturnType<typeof readReferralNudgesConfig>;

// The section joins `AppConfig` (platform names no area above it: docs/architecture.md#api-areas).
declare module '../../platform/config/app-config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppSettingsMap extends ReferralNudgesSection {}
}
