import { Module } from '@nestjs/common';
import { BranchQualificationModule } from '../../membership/branch-qualification/branch-qualification.module';
import { LifecycleModule } from '../../membership/lifecycle/lifecycle.module';
import { MindbodySiteClient } from './client/mindbody-site-client';
import { BranchLapseNotices } from './pipeline/branch-lapse-notices';
import { MindbodyCrypto } from './persistence/mindbody-crypto';
import { MindbodyWebhookKeys } from './persistence/mindbody-webhook-keys';
import { MindbodyMembersRepository } from './persistence/mindbody-members.repository';
import { MindbodyProcessor } from './jobs/mindbody-processor';
import { MindbodyWebhookWatch } from './jobs/mindbody-webhook-watch';
import { MindbodyAddClient } from './jobs/mindbody-add-client';
import { MindbodyVisits } from './jobs/mindbody-visits';
import { MindbodyPipeline } from './pipeline/mindbody-pipeline';
import { MindbodyController } from './http/mindbody.controller';
import { MindbodyRepository } from './persistence/mindbody.repository';
import { MindbodyService } from './mindbody.service';
import { FailedSignatureThrottle } from '../../platform/throttle/failed-signature-throttle';
import { MailModule } from '../../platform/mail/mail.module';
import { ReferralNudgesModule } from '../../member/referral-nudges/referral-nudges.module';

/** Mindbody integration (docs/product.md#mindbody-setup, docs/product.md#mindbody-stages; docs/architecture.md#mindbody): setup wizard endpoints, import/sync jobs, webhooks. */
@Module({
  imports: [LifecycleModule, BranchQualificationModule, MailModule, ReferralNudgesModule],
  controllers: [MindbodyController],
  providers: [
    MindbodyService,
    MindbodyRepository,
    MindbodyMembersRepository,
    MindbodyProcessor,
    MindbodyWebhookWatch,
    MindbodyAddClient,
    MindbodyVisits,
    MindbodyPipeline,
    MindbodyCrypto,
    MindbodyWebhookKeys,
    FailedSignatureThrottle,
    MindbodySiteClient,
    BranchLapseNotices,
  ],
  // MindbodyCrypto also seals the gyms' Stripe keys (integrations/stripe-members): one instance.
  exports: [MindbodyProcessor, MindbodyCrypto, FailedSignatureThrottle],
})
export class MindbodyModule {}
