import { Module } from '@nestjs/common';
import { AccountModule } from './account/account.module';
import { OwnerBillingModule } from './billing/billing.module';
import { SupportModule } from './support/support.module';
import { GettingStartedModule } from './getting-started/getting-started.module';
import { TeamModule } from './team/team.module';
import { DataExportModule } from './data-export/data-export.module';
import { AccountClosureModule } from './account-closure/account-closure.module';

/**
 * The owner area: the owner's account (details, password), Grove's own bill (Stripe), Contact Support, the 'Getting started' checklist the team (staff accounts) the export of a business's data and its closure. Imports only platform
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [
    AccountModule,
    OwnerBillingModule,
    SupportModule,
    GettingStartedModule,
    TeamModule,
    DataExportModule,
    AccountClosureModule,
  ],
})
export class OwnerModule {}
