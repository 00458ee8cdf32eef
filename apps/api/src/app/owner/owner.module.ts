import { Module } from '@nestjs/common';
import { AccountModule } from './account/account.module';
import { OwnerBillingModule } from './billing/billing.module';
import { SupportModule } from './support/support.module';
import { GettingStartedModule } from './getting-started/getting-started.module';
import { TeamModule } from './team/team.module';

/**
 * The owner area: the owner's account (details, password), Grove's own bill (Stripe), Contact Support, the 'Getting started' checklist and the team (staff accounts). Imports only platform
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [AccountModule, OwnerBillingModule, SupportModule, GettingStartedModule, TeamModule],
})
export class OwnerModule {}
