import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './app-config';
import { jsonReplyCompression } from './platform/common/json-compression';
import { requestIds } from './platform/common/request-id';
import {
  REQUEST_LIMITS,
  boundRequestHeaders,
  parseQuery,
  queryParameterLimit,
} from './platform/common/request-limits';
import { httpMetrics } from './platform/metrics/http-metrics';
import { MetricsService } from './platform/metrics/metrics.service';
import {
  API_PREFIX,
  API_PREFIX_OPTIONS,
  buildOpenApiDocument,
} from './platform/openapi/openapi-document';
import { contentSecurityPolicy } from './platform/web/content-security-policy';
import { WebAppsService } from './platform/web/web-apps.service';
import { PRERENDERED_APP_LOADER_SHA256 } from './platform/web/prerendered-app-loader';

/**
 * Everything `main.ts` and the integration tests both apply to the app before `init()`:
 * Express's `trust proxy` (TRUST_PROXY), request ids (`X-Request-Id`, `requestIds`), request
 * metrics (`httpMetrics`: rate and latency per route pattern), pino logger, helmet + CSP (`contentSecurityPolicy`: self, the configured remote origins, the captcha provider), response compression (JSON in one call: `jsonReplyCompression`), cookies, the `/api`
 * prefix (except `/remotes.json`, the join page `/referral/:code` and the member page `/member`), the static web apps and OpenAPI at `/api/docs` (unless
 * API_DOCS_ENABLED is off, the production default). The request limits (`REQUEST_LIMITS`: headers,
 * query string, JSON and form bodies) are applied here too, so each is stated once.
 */
export function setupApp(app: INestApplication): void {
  const config = app.get(AppConfig);
  // Behind trusted proxies (TRUST_PROXY), `req.ip` is the client from X-Forwarded-For, and
  // `req.protocol` / `req.host` follow X-Forwarded-Proto / X-Forwarded-Host. The throttler's
  // tracker, `@Ip()` (stored client_ip), the request log and `OriginGuard`'s
  // own origin all read those (links never do: they are built on PUBLIC_ORIGIN).
  app.getHttpAdapter().getInstance().set('trust proxy', config.trustProxy);
  // Headers over REQUEST_LIMITS.headerBytes: 431 JSON from the HTTP server itself.
  boundRequestHeaders(app.getHttpServer() as Server);
  app.getHttpAdapter().getInstance().set('query parser', parseQuery);
  // First, so every reply carries its X-Request-Id and is measured, whoever answers it; before
  // the request logger (a module middleware, installed at init), whose line carries the same id.
  app.use(requestIds());
  app.use(httpMetrics(app.get(MetricsService)));
  app.use(queryParameterLimit());
  app.useLogger(app.get(Logger));
  // Helmet's other headers; the CSP (which names the remotes' origins and the captcha's) is Grove's own.
  app.use(helmet({ contentSecurityPolicy: false }));
  const csp = contentSecurityPolicy({
    remoteOrigins: config.remoteOrigins,
    captchaProvider: config.captcha.provider,
    inlineScriptHashes: [PRERENDERED_APP_LOADER_SHA256],
  });
  app.use((_request: Request, response: Response, next: NextFunction) => {
    response.setHeader('Content-Security-Policy', csp);
    next();
  });
  // API replies change with every write and nothing revalidates them; skip hashing each body
  // for an ETag (static files keep theirs, set by the static handler).
  app.getHttpAdapter().getInstance().set('etag', false);
  // JSON replies are compressed in one call (`jsonReplyCompression`), other dynamic replies (HTML,
  // CSV) on the fly by `compression` (Brotli or gzip, as the client accepts); the web apps' built
  // files are served from their precompressed .br/.gz copies (WebAppsService).
  app.use(jsonReplyCompression());
  app.use(compression());
  app.use(cookieParser());
  app.setGlobalPrefix(API_PREFIX, API_PREFIX_OPTIONS);
  app.use(app.get(WebAppsService).handler());
  // Nest's own JSON and form parsers, with the limits stated (Nest then installs no others; the
  // rawBody option, which keeps each body's bytes for webhook signatures, still applies).
  const express = app as NestExpressApplication;
  express.useBodyParser('json', { limit: REQUEST_LIMITS.bodyBytes });
  express.useBodyParser('urlencoded', {
    extended: true,
    limit: REQUEST_LIMITS.bodyBytes,
    parameterLimit: REQUEST_LIMITS.formParameters,
  });
  if (config.apiDocsEnabled) setupApiDocs(app);
}

/** OpenAPI (Swagger UI at `/api/docs`, JSON at `/api/docs-json`); only when API_DOCS_ENABLED allows. */
function setupApiDocs(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, buildOpenApiDocument(app));
}
