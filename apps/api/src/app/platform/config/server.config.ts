import { IsIn, IsOptional, IsString } from 'class-validator';
import { EnvBool, EnvInt, EnvUrl } from '../common/config/env-section';
import { IsTrustProxy, readTrustProxy } from '../common/trust-proxy';

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
   * Grove's public origin (`https://grove.example.com`): every link Grove hands out is built from
   * it, never from a request's Host (issue 24 part 1): the links in member emails (magic link,
   * referral link, unsubscribe), referral link URLs and QR codes, the members export and the
   * Mindbody webhook URL. Required with `NODE_ENV=production` (the API refuses to start without
   * it); elsewhere `http://localhost:$PORT`.
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

  /**
   * Milliseconds between SIGTERM and closing the listener, during which `GET /api/health/live`
   * answers 503 and requests are still served: long enough for the proxy's checks to take the
   * replica out of rotation (deploy/haproxy/haproxy.cfg: 2 failed checks 1 s apart), so no new
   * connection meets a closed listener. 0 (default): close at once (one process, no proxy).
   */
  @EnvInt(0, 60_000)
  SHUTDOWN_DRAIN_MS = 0;
}

/** The server's own settings of `AppConfig` from the validated variables. */
export function readServerConfig(vars: ServerEnv): {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  /** Exact origins (`https://host[:port]`), no trailing slash. */
  allowedOrigins: readonly string[];
  /** Which proxies' X-Forwarded-* headers Express believes (TRUST_PROXY); false: none. */
  trustProxy: ReturnType<typeof readTrustProxy>;
  /**
   * Origin of every link Grove hands out (PUBLIC_ORIGIN's origin: no path, no trailing slash;
   * `http://localhost:<PORT>` outside production when unset). Never taken from a request.
   */
  publicOrigin: string;
  logLevel: string;
  /** True: human-readable log lines (LOG_PRETTY). */
  logPretty: boolean;
  /** True: OpenAPI at `/api/docs` (API_DOCS_ENABLED; default off in production). */
  apiDocsEnabled: boolean;
  seedDemo: boolean;
  /** Milliseconds a stopping process keeps serving while its liveness says 503 (SHUTDOWN_DRAIN_MS). */
  shutdownDrainMs: number;
} {
  return {
    nodeEnv: vars.NODE_ENV,
    port: vars.PORT,
    allowedOrigins: vars.ALLOWED_ORIGINS.split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    trustProxy: readTrustProxy(vars.TRUST_PROXY),
    publicOrigin: vars.PUBLIC_ORIGIN
      ? new URL(vars.PUBLIC_ORIGIN).origin
      : `http://localhost:${vars.PORT}`,
    logLevel: vars.LOG_LEVEL,
    logPretty: vars.LOG_PRETTY,
    apiDocsEnabled: vars.API_DOCS_ENABLED ?? vars.NODE_ENV !== 'production',
    seedDemo: vars.GROVE_SEED_DEMO,
    shutdownDrainMs: vars.SHUTDOWN_DRAIN_MS,
  };
}

/**
 * What a production start lacks among the server's own variables: PUBLIC_ORIGIN (issue 24 part
 * 1: without it, links in emails would have to come from somewhere else, and a request's Host is
 * the attacker's to choose).
 * @returns one line per problem; empty when fit for production (or not production)
 */
export function productionServerProblems(vars: ServerEnv): string[] {
  if (vars.NODE_ENV !== 'production' || vars.PUBLIC_ORIGIN) return [];
  return [
    "PUBLIC_ORIGIN is required when NODE_ENV=production (every link in an email is built from it, never from a request's Host), e.g. https://grove.example.com",
  ];
}
