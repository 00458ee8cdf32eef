import { Module } from '@nestjs/common';
import { BranchQualificationModule } from '../branch-qualification/branch-qualification.module';
import { MemberNotificationsModule } from '../member-notifications/member-notifications.module';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { LinksForEveryoneModule } from '../links-for-everyone/links-for-everyone.module';
import { MindbodySiteClient } from './client/mindbody-site-client';
import { BranchLapseNotices } from './pipeline/branch-lapse-notices';
import { MindbodyCrypto } from './persistence/mindbody-crypto';
import { MindbodyMembersRepository } from './persistence/mindbody-members.repository';
import { MindbodyProcessor } from './jobs/mindbody-processor';
import { MindbodyPipeline } from './pipeline/mindbody-pipeline';
import { MindbodyController } from './http/mindbody.controller';
import { MindbodyRepository } from './persistence/mindbody.repository';
import { MindbodyService } from './mindbody.service';

/** Mindbody integration (docs/product.md#mindbody-setup, docs/product.md#mindbody-stages; docs/architecture.md#mindbody): setup wizard endpoints, import/sync jobs, webhooks. */
@Module({
  imports: [
    LinksForEveryoneModule,
    LifecycleModule,
    MemberNotificationsModule,
    BranchQualificationModule,
  ],
  controllers: [MindbodyController],
  providers: [
    MindbodyService,
    MindbodyRepository,
    MindbodyMembersRepository,
    MindbodyProcessor,
    MindbodyPipeline,
    MindbodyCrypto,
    MindbodySiteClient,
    BranchLapseNotices,
  ],
  exports: [MindbodyProcessor],
})
export class MindbodyModule {}
