import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { IsOptional, IsString, MinLength } from 'class-validator';
import { EnvBool, EnvInt } from '../common/config/env-section';

/** The sign-in and session environment variables (times in seconds). */
export class AuthEnv {
  /**
   * Secret. Signs access tokens. Required in production (≥ 32 characters, not a placeholder or a
   * value from the repository: `productionSecretProblems`); a random per-process secret otherwise.
   */
  @IsString()
  @MinLength(16)
  @IsOptional()
  JWT_SECRET?: string;

  /** Lifetime of the access-token cookie. */
  @EnvInt(10)
  ACCESS_TOKEN_TTL_SECONDS = 900;

  /** Absolute lifetime of a session from sign-in; refreshing does not extend it. */
  @EnvInt(60)
  REFRESH_TOKEN_TTL_SECONDS = 2_592_000;

  /** A session not refreshed for this long ends (idle timeout). */
  @EnvInt(60)
  SESSION_IDLE_TIMEOUT_SECONDS = 604_800;

  /** How long a just-rotated refresh token is still answered (with the session's current state) instead of being treated as reuse. */
  @EnvInt(0, 300)
  REFRESH_REUSE_GRACE_SECONDS = 30;

  /** Secure flag of the session cookies; default: on in production only. */
  @EnvBool()
  @IsOptional()
  COOKIE_SECURE?: boolean;
}

/**
 * The sign-in settings of `AppConfig` from the validated variables (production requires
 * JWT_SECRET: `assertProductionSecrets` runs first).
 * @param production true: cookies are Secure unless COOKIE_SECURE says otherwise
 * @param warn true: say so in the log when a random per-process secret stands in
 */
export function readAuthConfig(
  vars: AuthEnv,
  production: boolean,
  warn: boolean,
): {
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Seconds without a refresh after which a session ends (SESSION_IDLE_TIMEOUT_SECONDS). */
  sessionIdleTimeoutSeconds: number;
  /** Seconds a rotated refresh token is still answered instead of revoking its family (REFRESH_REUSE_GRACE_SECONDS). */
  refreshReuseGraceSeconds: number;
  cookieSecure: boolean;
} {
  let jwtSecret = vars.JWT_SECRET;
  if (!jwtSecret) {
    jwtSecret = randomBytes(32).toString('base64url');
    if (warn) {
      Logger.warn(
        'JWT_SECRET is not set: using a random per-process secret (sessions end on restart, and sign-up or verification emails still queued then are not sent)',
        'AppConfig',
      );
    }
  }
  return {
    jwtSecret,
    accessTokenTtlSeconds: vars.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: vars.REFRESH_TOKEN_TTL_SECONDS,
    sessionIdleTimeoutSeconds: vars.SESSION_IDLE_TIMEOUT_SECONDS,
    refreshReuseGraceSeconds: vars.REFRESH_REUSE_GRACE_SECONDS,
    cookieSecure: vars.COOKIE_SECURE ?? production,
  };
}
