import { Module } from '@nestjs/common';
import { MindbodyModule } from './mindbody/mindbody.module';

/**
 * The integrations area: Mindbody (import, sync, webhooks, autopay discounts). The top area: may import every other
 * (docs/architecture.md#api-areas).
 */
@Module({
  imports: [MindbodyModule],
})
export class IntegrationsModule {}
