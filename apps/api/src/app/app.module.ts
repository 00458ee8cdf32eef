import { Global, Module, RequestMethod, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DestinationStream } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { AccountModule } from './account/account.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuthModule } from './auth/auth.module';
import { BranchQualificationModule } from './branch-qualification/branch-qualification.module';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { GracefulShutdown } from './graceful-shutdown';
import { CaptchaModule } from './captcha/captcha.module';
import { AppConfig, loadAppConfig } from './config/app-config';
import { OriginGuard } from './common/origin.guard';
import { LOG_REDACT_PATHS, redactUrl, safeError } from './common/log-safety';
import { logsRequests, prettyLogs } from './common/request-logging';
import { ContactModule } from './contact/contact.module';
import { createValidationPipe } from './common/validation';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { JobsModule } from './jobs/jobs.module';
import { LeadsModule } from './leads/leads.module';
import { MailModule } from './mail/mail.module';
import { MemberEmailsModule } from './member-emails/member-emails.module';
import { MemberPageModule } from './member-page/member-page.module';
import { MemberProfileModule } from './member-profile/member-profile.module';
import { MembersModule } from './members/members.module';
import { MembersCsvModule } from './members-csv/members-csv.module';
import { MindbodyModule } from './mindbody/mindbody.module';
import { ProspectsModule } from './prospects/prospects.module';
import { ReferralsModule } from './referrals/referrals.module';
import { SupportModule } from './support/support.module';
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
 * The Grove API. Global: origin check, then JWT guard (routes opt out with `@Public()`),
 * ValidationPipe (whitelist, forbid unknown, transform; `ApiErrorBody` errors) and the
 * `ApiExceptionFilter`.
 */
@Module({})
export class AppModule {
  /**
   * @param env variables to validate (default `process.env`); tests pass their own database URL
   * @param options.logDestination where log lines go instead of stdout (tests read them)
   * @throws Error when the configuration is invalid (see `ENV_SECTIONS`)
   */
  static forRoot(
    env: Record<string, string | undefined> = process.env,
    options: { logDestination?: DestinationStream } = {},
  ): DynamicModule {
    const config = loadAppConfig(env);
    const pinoOptions: PinoHttpOptions = {
      level: config.logLevel,
      genReqId: (request: IncomingMessage) => {
        const header = request.headers['x-request-id'];
        return typeof header === 'string' && header.length <= 100 ? header : randomUUID();
      },
      serializers: {
        // `req.remoteAddress` in request logs: the client as Express sees it (`req.ip`, from
        // X-Forwarded-For behind a trusted proxy, TRUST_PROXY) rather than the socket's peer;
        // `req.url` without search terms (`redactUrl`).
        req: (req: { url?: string; remoteAddress?: string; raw?: { ip?: string } }) => {
          req.remoteAddress = req.raw?.ip ?? req.remoteAddress;
          if (req.url) req.url = redactUrl(req.url);
          return req;
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
      module: AppModule,
      imports: [
        AppConfigModule.forConfig(config),
        LoggerModule.forRoot({
          pinoHttp: options.logDestination ? [pinoOptions, options.logDestination] : pinoOptions,
          forRoutes: logsRequests(config.logLevel)
            ? [{ path: '{*splat}', method: RequestMethod.ALL }]
            : [],
        }),
        throttlingModule(config),
        DatabaseModule,
        JobsModule,
        AuthModule,
        MembersModule,
        BranchQualificationModule,
        MembersCsvModule,
        ReferralsModule,
        MemberProfileModule,
        ProspectsModule,
        MindbodyModule,
        MailModule,
        MemberEmailsModule,
        MemberPageModule,
        CaptchaModule,
        ContactModule,
        LeadsModule,
        SupportModule,
        AccountModule,
        AnalyticsModule,
        HealthModule,
        WebModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: OriginGuard },
        { provide: APP_GUARD, useExisting: JwtAuthGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        GracefulShutdown,
      ],
    };
  }
}
