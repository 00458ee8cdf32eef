import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobsService } from '../jobs/jobs.service';
import { AuditRepository } from './audit.repository';

/** The pg-boss queue of the daily audit-log prune. */
const AUDIT_PRUNE_QUEUE = 'audit-log.prune';
/** Every day at 04:17 UTC (off the hour, after the retention sweep at 03:43). */
const AUDIT_PRUNE_CRON = '17 4 * * *';
/** Entries deleted per statement (short statements, no long locks). */
export const AUDIT_PRUNE_BATCH = 5_000;

/**
 * The daily audit-log prune (a pg-boss schedule, one instance runs it): deletes every entry older
 * than its business's retention (`businesses.audit_retention_days`, default 730 days) through
 * `prune_audit_log`, the one deletion the table's trigger allows
 * (docs/decisions/audit-log-append-only.md).
 */
@Injectable()
export class AuditRetention implements OnModuleInit {
  private readonly logger = new Logger(AuditRetention.name);

  constructor(
    private readonly repository: AuditRepository,
    private readonly jobs: JobsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<object>(
      { name: AUDIT_PRUNE_QUEUE, policy: 'singleton', retryLimit: 1 },
      async (_data, _job, stopping) => {
        await this.prune(stopping);
      },
    );
    await this.jobs.schedule(AUDIT_PRUNE_QUEUE, AUDIT_PRUNE_CRON);
  }

  /**
   * Deletes every entry past retention, `AUDIT_PRUNE_BATCH` per statement; stops between batches
   * once `stopping` is aborted.
   * @returns how many entries were deleted
   */
  async prune(stopping?: AbortSignal): Promise<number> {
    let deleted = 0;
    for (;;) {
      if (stopping?.aborted) break;
      const n = await this.repository.prune(AUDIT_PRUNE_BATCH);
      deleted += n;
      if (n < AUDIT_PRUNE_BATCH) break;
    }
    this.logger.log(`audit-log prune: ${deleted} entries`);
    return deleted;
  }
}
