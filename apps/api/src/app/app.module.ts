import { Module, type DynamicModule } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { loadAppConfig } from './app-config';
import { DATABASE_SCHEMA } from './database-schema';
import { DemoSeeder } from './demo-seed';
import { InsightModule } from './insight/insight.module';
import { IntegrationsModule } from './integrations/integrations.module';
import { MemberAreaModule } from './member/member.module';
import { MembershipModule } from './membership/membership.module';
import { OwnerModule } from './owner/owner.module';
import { PlatformModule } from './platform/platform.module';
import { ReferralModule } from './referral/referral.module';
import { SiteModule } from './site/site.module';

/**
 * The Grove API: the areas in their dependency order (docs/architecture.md#api-areas), platform
 * first, and the optional demo seed.
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
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, DATABASE_SCHEMA, options),
        OwnerModule,
        SiteModule,
        MembershipModule,
        ReferralModule,
        MemberAreaModule,
        InsightModule,
        IntegrationsModule,
      ],
      providers: [DemoSeeder],
    };
  }
}
