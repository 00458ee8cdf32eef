import { Module } from '@nestjs/common';
import { LifecycleRepository } from './lifecycle.repository';
import { LifecycleService } from './lifecycle.service';

/** Lifecycle facts, join page visits and the price ledger (docs/architecture.md#lifecycle-facts). */
@Module({
  providers: [LifecycleRepository, LifecycleService],
  exports: [LifecycleService],
})
export class LifecycleModule {}
