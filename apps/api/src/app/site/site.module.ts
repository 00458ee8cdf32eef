import { Module } from '@nestjs/common';
import { ContactModule } from './contact/contact.module';
import { LeadsModule } from './leads/leads.module';

/**
 * The public site's area: the contact form and Learn More leads. Imports only platform
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [ContactModule, LeadsModule],
})
export class SiteModule {}
