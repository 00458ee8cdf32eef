import { EnvInt } from '../../platform/common/config/env-section';

/** The fraud-signal environment variables (issue 15 part 4: signals on referral joins). */
export class FraudEnv {
  /** Joins through one referral link within FRAUD_BURST_WINDOW_SECONDS from which each further join is flagged 'join_burst' (this many counts, including the join itself). */
  @EnvInt(2, 10_000)
  FRAUD_BURST_JOINS = 5;

  /** The window of FRAUD_BURST_JOINS, seconds. */
  @EnvInt(1, 86_400)
  FRAUD_BURST_WINDOW_SECONDS = 600;

  /** Days a member page opening (a keyed digest of the client address) is kept and compared with joins through that member's link. */
  @EnvInt(1, 365)
  MEMBER_PAGE_OPEN_RETENTION_DAYS = 7;
}

/** The fraud-signal settings of `AppConfig`. */
export interface FraudSettings {
  /** A join is flagged 'join_burst' when it is at least the `burstJoins`-th on its link within `burstWindowSeconds`. */
  burstJoins: number;
  burstWindowSeconds: number;
  /** Days a member page opening is kept (and counts against joins). */
  memberPageOpenRetentionDays: number;
}

/** `AppConfig.fraud` from the validated variables. */
export function readFraudConfig(vars: FraudEnv): { fraud: FraudSettings } {
  return {
    fraud: {
      burstJoins: vars.FRAUD_BURST_JOINS,
      burstWindowSeconds: vars.FRAUD_BURST_WINDOW_SECONDS,
      memberPageOpenRetentionDays: vars.MEMBER_PAGE_OPEN_RETENTION_DAYS,
    },
  };
}

/** This section's settings, as `readFraudConfig` builds them. */
type FraudSection = ReturnType<typeof readFraudConfig>;

// The section joins `AppConfig` (platform names no area above it: docs/architecture.md#api-areas).
declare module '../../platform/config/app-config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppSettingsMap extends FraudSection {}
}
