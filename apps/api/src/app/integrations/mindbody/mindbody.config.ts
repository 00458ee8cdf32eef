import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { IsOptional, IsString, MinLength } from 'class-validator';
import { MINDBODY_WEBHOOKS_API_URL } from '@grove/api-mindbody';
import { EnvUrl, invalidConfiguration } from '../../platform/common/config/env-section';

/** The Mindbody environment variables (docs/architecture.md#mindbody). */
export class MindbodyEnv {
  /**
   * Base URL of the Mindbody Public API v6. The real one is
   * `https://api.mindbodyonline.com/public/v6`; `npm start` points it at the sandbox it starts
   * when unset. Default: a local sandbox on port 4010.
   */
  @EnvUrl()
  MINDBODY_API_URL = 'http://127.0.0.1:4010/public/v6';

  /**
   * Secret. Mindbody developer `Api-Key` header (of the Public API and the Webhooks API); default:
   * the sandbox's key. Production refuses to start with it unset or with the sandbox's key
   * (`PRODUCTION_SECRETS`).
   */
  @IsString()
  @MinLength(1)
  MINDBODY_API_KEY = 'grove-sandbox-key';

  /**
   * Base URL of Mindbody's Webhooks API v1 (subscriptions): default the host the official
   * Webhooks SDK documents, `https://push-api.mindbodyonline.com` with its `/api/v1` — on its own,
   * never derived from MINDBODY_API_URL (`npm start` and the tests point both at the sandbox).
   */
  @EnvUrl()
  MINDBODY_WEBHOOKS_URL = MINDBODY_WEBHOOKS_API_URL;

  /**
   * Secret. 32 bytes, base64: the AES-256-GCM key of stored Mindbody secrets (password, staff
   * token, webhook signature key). Required in production; a random per-process key otherwise
   * (stored credentials then stop working on restart).
   */
  @IsString()
  @IsOptional()
  MINDBODY_CREDENTIALS_KEY?: string;
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

/**
 * `AppConfig.mindbody` from the validated variables (production requires
 * MINDBODY_CREDENTIALS_KEY: `assertProductionSecrets` runs first).
 * @param warn true: say so in the log when a random per-process key stands in (development)
 * @throws Error when MINDBODY_CREDENTIALS_KEY is not 32 bytes of base64
 */
export function readMindbodyConfig(vars: MindbodyEnv, warn: boolean): { mindbody: MindbodyConfig } {
  const apiUrl = vars.MINDBODY_API_URL.replace(/\/+$/, '');
  const webhooksUrl = vars.MINDBODY_WEBHOOKS_URL.replace(/\/+$/, '');
  let credentialsKey: Buffer;
  if (vars.MINDBODY_CREDENTIALS_KEY) {
    credentialsKey = Buffer.from(vars.MINDBODY_CREDENTIALS_KEY, 'base64');
    if (credentialsKey.length !== 32) {
      throw invalidConfiguration(['MINDBODY_CREDENTIALS_KEY must be 32 bytes, base64-encoded']);
    }
  } else {
    credentialsKey = randomBytes(32);
    if (warn) {
      Logger.warn(
        'MINDBODY_CREDENTIALS_KEY is not set: using a random per-process key (stored Mindbody credentials stop working on restart)',
        'AppConfig',
      );
    }
  }
  return { mindbody: { apiUrl, apiKey: vars.MINDBODY_API_KEY, webhooksUrl, credentialsKey } };
}

/** This section's settings, as `readMindbodyConfig` builds them. */
type MindbodySection = ReturnType<typeof readMindbodyConfig>;

// The section joins `AppConfig` (platform names no area above it: docs/architecture.md#api-areas).
declare module '../../platform/config/app-config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppSettingsMap extends MindbodySection {}
}
