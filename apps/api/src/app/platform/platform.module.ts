import { Global, Module, RequestMethod, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BillingModule } from './billing/billing.module';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { RoleGuard } from './auth/roles/role.guard';
import { SecondFactorGate } from './auth/second-factor/second-factor.gate';
import { CaptchaModule } from './captcha/captcha.module';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { LOG_REDACT_PATHS, redactParams, redactUrl, safeError } from './common/log-safety';
import { OriginGuard } from './common/origin.guard';
import { requestIdOf } from './common/request-id';
import { logsRequests, prettyLogs } from './common/request-logging';
import { createValidationPipe } from './common/validation';
import { AppConfig } from './config/app-config';
import type { DatabaseSchema } from './database/data-source';
import { DatabaseModule } from './database/database.module';
import { GracefulShutdown } from './graceful-shutdown';
import { HealthModule } from './health/health.module';
import { JobsModule } from './jobs/jobs.module';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './metrics/metrics.module';
import { throttlingModule } from './throttle/throttling';
import { WebModule } from './web/web.module';

/** Makes the validated `AppConfig` injectable everywhere. */
@Global()
@Module({})
class AppConfigModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}

/**
 * The platform area (docs/architecture.md#api-areas): configuration, logging, metrics, throttling,
 * the database, jobs, owner sessions (auth), mail, captcha, health and the static web apps, plus the
 * global origin check, JWT guard (routes opt out with `@Public()`), ValidationPipe (whitelist,
 * forbid unknown, transform; `ApiErrorBody` errors) and `ApiExceptionFilter`. Platform imports
 * nothing from another area.
 */
@Module({})
export class PlatformModule {
  /**
   * @param config the validated configuration (the root's `loadAppConfig`)
   * @param schema every entity and migration (the root's `DATABASE_SCHEMA`)
   * @param options.logDestination where log lines go instead of stdout (tests read them)
   */
  static forRoot(
    config: AppConfig,
    schema: DatabaseSchema,
    options: { logDestination?: DestinationStream } = {},
  ): DynamicModule {
    const pinoOptions: PinoHttpOptions = {
      level: config.logLevel,
      // The id `requestIds` (setup-app.ts) gave the request and answered in X-Request-Id
      // (pino-http keeps an existing `req.id`; this only runs where that middleware did not).
      genReqId: requestIdOf,
      serializers: {
        // `req.remoteAddress` in request logs: the client as Express sees it (`req.ip`, from
        // X-Forwarded-For behind a trusted proxy, TRUST_PROXY) rather than the socket's peer;
        // `req.url` without search terms or tokens (`redactUrl`), `req.params` without tokens
        // (`redactParams`: the unsubscribe token and referral code, also inside `splat`).
        req: (req: {
          url?: string;
          params?: Record<string, unknown>;
          remoteAddress?: string;
          raw?: { ip?: string };
        }) => {
          req.remoteAddress = req.raw?.ip ?? req.remoteAddress;
          if (req.url) req.url = redactUrl(req.url);
          if (req.params) req.params = redactParams(req.params);
          return req;
        },
        // `res.headers.location` without tokens (the unsubscribe link redirects to its page).
        res: (res: { headers?: Record<string, unknown> }) => {
          const location = res.headers?.['location'];
          if (res.headers && typeof location === 'string')
            res.headers = { ...res.headers, location: redactUrl(location) };
          return res;
        },
        // Any logged error: kind, message, codes and names only (never a statement's parameters).
        err: safeError,
      },
      redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' },
      ...(prettyLogs(config, process.stdout.isTTY === true, options.logDestination !== undefined)
        ? { transport: { target: 'pino-pretty', options: { singleLine: true } } }
        : {}),
    };
    return {
      module: PlatformModule,
      imports: [
        AppConfigModule.forConfig(config),
        MetricsModule,
        LoggerModule.forRoot({
          pinoHttp: options.logDestination ? [pinoOptions, options.logDestination] : pinoOptions,
          forRoutes: logsRequests(config.logLevel)
            ? [{ path: '{*splat}', method: RequestMethod.ALL }]
            : [],
        }),
        throttlingModule(config),
        DatabaseModule.forRoot(schema),
        JobsModule,
        AuditModule,
        AuthModule,
        BillingModule,
        MailModule,
        CaptchaModule,
        HealthModule,
        WebModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: OriginGuard },
        { provide: APP_GUARD, useExisting: JwtAuthGuard },
        { provide: APP_GUARD, useExisting: SecondFactorGate },
        { provide: APP_GUARD, useExisting: RoleGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        GracefulShutdown,
      ],
    };
  }
}
