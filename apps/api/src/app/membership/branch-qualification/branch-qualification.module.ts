import { Module } from '@nestjs/common';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { BranchSettingsController } from './branch-qualification.controller';
import { BranchQualificationRepository } from './branch-qualification.repository';
import { BranchQualificationService } from './branch-qualification.service';

/** When a branch counts: the business's rule, its refresh and hourly job (docs/product.md#branch-qualification). */
@Module({
  imports: [LifecycleModule],
  controllers: [BranchSettingsController],
  providers: [BranchQualificationRepository, BranchQualificationService],
  exports: [BranchQualificationService],
})
export class BranchQualificationModule {}
