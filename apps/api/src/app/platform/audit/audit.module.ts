import { Global, Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { AuditController } from './audit.controller';
import { AuditLog } from './audit-log';
import { AuditRetention } from './audit-retention';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/**
 * The audit log (issue 34 item 2, docs/product.md#audit-log): `AuditLog.record`, which every area
 * calls inside its write's transaction (global: no module imports it), the Activity routes, and
 * the daily prune past each business's retention.
 */
@Global()
@Module({
  imports: [JobsModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditLog, AuditService, AuditRetention],
  exports: [AuditLog],
})
export class AuditModule {}
