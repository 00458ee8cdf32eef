import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { RetentionRepository, type RetentionRule } from '../database/retention.repository';
import { JobsService } from './jobs.service';

/** The pg-boss queue of the daily retention sweep. */
const RETENTION_QUEUE = 'retention';
/** Every day at 03:43 UTC (off the hour, away from the other schedules). */
const RETENTION_CRON = '43 3 * * *';
/** Rows deleted per statement: each statement is short, so no sweep holds locks for long. */
export const RETENTION_BATCH = 5_000;

/**
 * What Grove keeps and for how long (issue 31: these tables grew forever; figures in
 * docs/operations.md#retention). Each rule's condition is on the row's own time columns.
 * - `sessions`: an owner's refresh session 30 days after it expired (revoked ones expire too);
 * - `member_sessions`, `member_magic_links`: a member's session or sign-in link 30 days after it
 *   expired (a link lives 30 minutes, a session 30 days);
 * - `mindbody_webhook_messages`: a delivery's messageId 30 days after it arrived (kept only to
 *   answer a repeated delivery once; Mindbody retries for at most a day);
 * - `outbox_emails`: an email kept without SMTP_URL 30 days after it was written (its links have
 *   long expired);
 * - `password_reset_tokens`: a reset link 30 days after it expired (it lives 30 minutes; a new
 *   link of the same owner also deletes theirs that ended a day before);
 * - `stripe_events`: a Stripe event id 30 days after it arrived (Stripe retries a delivery for
 *   up to 3 days: https://docs.stripe.com/webhooks#retries);
 * - `mail_deliveries`: the delivery record of one of Grove's own emails 30 days after its claim
 *   (a job's attempts end within the hour: docs/decisions/grove-emails-at-most-once.md).
 */
export const RETENTION_RULES: readonly RetentionRule[] = [
  { table: 'sessions', expired: `expires_at < now() - interval '30 days'` },
  { table: 'member_sessions', expired: `expires_at < now() - interval '30 days'` },
  { table: 'member_magic_links', expired: `expires_at < now() - interval '30 days'` },
  { table: 'mindbody_webhook_messages', expired: `received_at < now() - interval '30 days'` },
  { table: 'outbox_emails', expired: `created_at < now() - interval '30 days'` },
  { table: 'password_reset_tokens', expired: `expires_at < now() - interval '30 days'` },
  { table: 'stripe_events', expired: `received_at < now() - interval '30 days'` },
  { table: 'mail_deliveries', expired: `claimed_at < now() - interval '30 days'` },
];

/**
 * The daily retention sweep (a pg-boss schedule, one instance runs it): deletes what
 * {@link RETENTION_RULES} says Grove no longer keeps, `RETENTION_BATCH` rows per statement, and
 * logs how many rows each table lost.
 */
@Injectable()
export class RetentionSweep implements OnModuleInit {
  private readonly logger = new Logger(RetentionSweep.name);

  constructor(
    private readonly repository: RetentionRepository,
    private readonly jobs: JobsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<object>(
      { name: RETENTION_QUEUE, policy: 'singleton', retryLimit: 1 },
      async (_data, _job, stopping) => {
        await this.sweep(stopping);
      },
    );
    await this.jobs.schedule(RETENTION_QUEUE, RETENTION_CRON);
  }

  /**
   * Deletes every row past its table's retention, in batches; stops between batches once
   * `stopping` is aborted (the next day's sweep goes on).
   * @returns rows deleted per table, e.g. `{ sessions: 120, outbox_emails: 0, … }`
   */
  async sweep(stopping?: AbortSignal): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const rule of RETENTION_RULES) {
      deleted[rule.table] = 0;
      for (;;) {
        if (stopping?.aborted) return deleted;
        const n = await this.repository.deleteExpired(rule, RETENTION_BATCH);
        deleted[rule.table] += n;
        if (n < RETENTION_BATCH) break;
      }
    }
    this.logger.log(`retention sweep: ${JSON.stringify(deleted)}`);
    return deleted;
  }
}
