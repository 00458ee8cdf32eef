import { EnvInt } from '../../platform/common/config/env-section';

/** The member page's sign-in variables (magic links, member sessions, the new-link request's throttles). */
export class MemberAuthEnv {
  /** Seconds a magic link to the member page stays usable (it works once). */
  @EnvInt(60, 604_800)
  MEMBER_MAGIC_LINK_TTL_SECONDS = 1800;

  /** Seconds a member page session lasts from the magic link that started it. */
  @EnvInt(60, 31_536_000)
  MEMBER_SESSION_TTL_SECONDS = 604_800;

  /** New-link requests (`POST /api/member/magic-link`) allowed per client address per 60 s. */
  @EnvInt(1)
  THROTTLE_MEMBER_LINK_LIMIT = 5;

  /** New-link requests allowed per email address per hour. */
  @EnvInt(1)
  THROTTLE_MEMBER_LINK_EMAIL_LIMIT = 3;
}

/** The member page's sign-in settings of `AppConfig`. */
export function readMemberAuthConfig(vars: MemberAuthEnv): {
  memberAuth: {
    /** Lifetime of a magic link, seconds. */
    magicLinkTtlSeconds: number;
    /** Lifetime of a member session, seconds. */
    sessionTtlSeconds: number;
    /** New-link requests per client address per 60 s. */
    linkRequestsPerClient: number;
    /** New-link requests per email address per hour. */
    linkRequestsPerEmail: number;
  };
} {
  return {
    memberAuth: {
      magicLinkTtlSeconds: vars.MEMBER_MAGIC_LINK_TTL_SECONDS,
      sessionTtlSeconds: vars.MEMBER_SESSION_TTL_SECONDS,
      linkRequestsPerClient: vars.THROTTLE_MEMBER_LINK_LIMIT,
      linkRequestsPerEmail: vars.THROTTLE_MEMBER_LINK_EMAIL_LIMIT,
    },
  };
}

/** This section's settings, as `readMemberAuthConfig` builds them. */
type MemberAuthSection = ReturnType<typeof readMemberAuthConfig>;

// The section joins `AppConfig` (platform names no area above it: docs/architecture.md#api-areas).
declare module '../../platform/config/app-config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppSettingsMap extends MemberAuthSection {}
}
