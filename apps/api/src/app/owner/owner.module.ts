import { Module } from '@nestjs/common';
import { AccountModule } from './account/account.module';
import { SupportModule } from './support/support.module';

/**
 * The owner area: the owner's account (details, password) and Contact Support. Imports only platform
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [AccountModule, SupportModule],
})
export class OwnerModule {}
