import type { EntityManager } from 'typeorm';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobsService } from '../../../platform/jobs/jobs.service';
import { errorMessage } from '../../../platform/common/error-message';
import {
  jobScope,
  type BusinessScope,
  type JobActor,
} from '../../../platform/database/business-scope';
import { MindbodySiteClient } from '../client/mindbody-site-client';
import { MindbodySiteSession } from '../client/mindbody-site-session';
import { MindbodyCrypto } from '../persistence/mindbody-crypto';
import type { MindbodyIntegrationEntity } from '../persistence/mindbody-integration.entity';
import { MindbodyRepository, type MindbodyProcessKind } from '../persistence/mindbody.repository';
import { MindbodyPipeline, type MindbodyRunResult } from '../pipeline/mindbody-pipeline';
import { billChangesFingerprint } from '../pipeline/bill-changes';
import { MailService } from '../../../platform/mail/mail.service';
import { AppConfig } from '../../../platform/config/app-config';
import { AuditLog, auditValue } from '../../../platform/audit/audit-log';
import { pendingBillsEmail } from '../pending-bills-email';
import type { MindbodyBillChange } from '@grove/contracts';

/** The pg-boss queue of Mindbody work (imports and syncs). */
const MINDBODY_QUEUE = 'mindbody';

/**
 * One job of one business: an import or a sync (each with docs/product.md#mindbody-stages's process state), or 'prices':
 * reading every managed member's contract for its autopay price, queued when an import completes.
 */
export interface MindbodyJob {
  businessId: string;
  kind: MindbodyProcessKind | 'prices';
  /**
   * A sync the owner confirmed (issue 31): only such a sync writes Mindbody autopays. Absent or
   * false (a sync a webhook queued, or a job queued before issue 31): the sync reads and stores,
   * then holds the bill changes it would write for the owner to review.
   */
  writeBills?: boolean;
  /** The member of staff who asked for the run (its audit entries name them). */
  actorUserId?: string;
  /** Mindbody, for a sync its webhook queued (its audit entries name Mindbody); neither: Grove. */
  actorKind?: JobActor['actorKind'];
}

/**
 * Mindbody imports and syncs as pg-boss jobs (docs/architecture.md#job-path, docs/architecture.md#mindbody). One queue, `stately` policy with
 * `singletonKey` = business + kind (at most one queued job of each kind per business, whatever API
 * instance queued it; the owner's confirmed sync has a key of its own, so a webhook's sync waiting in
 * the queue never stands in for it, nor it for one), and inside the job a per-business advisory lock, so no two jobs of one
 * business (import, sync, prices) ever run at once. Each run ends with docs/product.md#mindbody-stages's process state 'completed <ISO time>' or
 * 'failed <ISO time>'; Mindbody's transient failures (429, 5xx, dropped connections) are retried
 * by the client with backoff before a run fails.
 *
 * When the API shuts down (the jobs' `stopping` signal) an import or sync under way stops at its
 * next page or batch and ends 'failed <time>', as any failed run (the stage is unchanged and the
 * wizard offers the run again); a job that had not started yet, and a 'prices' job, go back to the
 * queue for the next instance that starts. A Mindbody request already sent is not cut short.
 */
@Injectable()
export class MindbodyProcessor implements OnModuleInit {
  private readonly logger = new Logger(MindbodyProcessor.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly integrations: MindbodyRepository,
    private readonly pipeline: MindbodyPipeline,
    private readonly siteClient: MindbodySiteClient,
    private readonly crypto: MindbodyCrypto,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
  ) {}

  /** Creates the `mindbody` queue (stately, no pg-boss retries: a failure is the 'failed <time>' state) with 2 workers. */
  async onModuleInit(): Promise<void> {
    await this.jobs.register<MindbodyJob>(
      { name: MINDBODY_QUEUE, policy: 'stately', retryLimit: 0, expireInSeconds: 60 * 60 },
      (data, _job, stopping) => this.run(data, stopping).then(() => undefined),
      2,
    );
  }

  /**
   * Queues work for one business. `singletonKey` = business + kind on a `stately` queue: at most
   * one queued job of each kind per business (a second request while one waits is that same job),
   * so a queued 'prices' job never swallows an import or a sync. A sync the owner confirmed
   * (`writeBills`, issue 31) has its own key (business + 'sync-confirmed'): a webhook's sync
   * already waiting (which writes nothing) does not swallow it, nor does it swallow one.
   * @param writeBills (sync) true only for the sync the owner confirmed: it writes autopays
   * @param manager queue it in this open transaction (committed or rolled back with it)
   * @param actor who asked (`jobActor(scope)`: a member of staff, or Mindbody for a webhook's
   *   sync): the run's audit entries name them; nothing: Grove
   */
  async enqueue(
    businessId: string,
    kind: MindbodyJob['kind'],
    writeBills = false,
    manager?: EntityManager,
    actor: JobActor = {},
  ): Promise<void> {
    const confirmed = kind === 'sync' && writeBills;
    await this.jobs.send<MindbodyJob>(
      MINDBODY_QUEUE,
      confirmed ? { businessId, kind, writeBills: true, ...actor } : { businessId, kind, ...actor },
      { singletonKey: `${businessId}:${confirmed ? 'sync-confirmed' : kind}`, manager },
    );
  }

  /**
   * Runs one job under the business's lock and records its outcome. A failure is the process
   * state 'failed <time>' (a re-run starts over and converges, upserts being idempotent by client id).
   * @param stopping aborted when the API shuts down (see the class): a job still waiting for the
   *   lock is queued again untouched; an import or sync under way stops at its next page or batch
   *   and ends 'failed <time>'; a 'prices' job under way is queued again
   * @returns the counts, or null when nothing ran to completion (stage too low, failed, stopped)
   * @throws database errors outside the run itself (taking the lock, reading the integration,
   *   recording the outcome)
   */
  async run(job: MindbodyJob, stopping?: AbortSignal): Promise<MindbodyRunResult | null> {
    let entered = false;
    try {
      return await this.integrations.withBusinessLock(
        job.businessId,
        () => {
          entered = true;
          return this.runLocked(job, stopping);
        },
        stopping,
      );
    } catch (error) {
      if (entered || !stopping?.aborted) throw error;
      await this.requeue(job, 'it waited for the business lock');
      return null;
    }
  }

  private async runLocked(
    job: MindbodyJob,
    stopping: AbortSignal | undefined,
  ): Promise<MindbodyRunResult | null> {
    if (stopping?.aborted) {
      await this.requeue(job, 'it was about to start');
      return null;
    }
    const scope = jobScope(job);
    const integration = await this.integrations.find(scope);
    const minStage = job.kind === 'sync' ? 4 : 2;
    if (!integration || integration.stage < minStage) return null;
    // One Mindbody client and one decrypted staff token for every call of this run.
    const mindbody = new MindbodySiteSession(
      integration,
      this.siteClient,
      this.crypto,
      this.integrations,
    );
    if (job.kind === 'prices') return this.priceQuietly(scope, integration, mindbody, stopping);
    if (integration.processState !== 'running')
      await this.integrations.startProcess(scope, minStage);
    const started = new Date();
    // Mindbody bills calls: the run's count (issue 22), failed runs too, recorded before the run's
    // end state, so a wizard that sees 'completed' sees this run's count.
    let recorded = false;
    const recordCalls = async () => {
      if (recorded) return;
      recorded = true;
      await this.integrations.recordCalls(scope, mindbody.calls, true);
    };
    // Only the sync the owner confirmed writes bills (issue 31); a webhook's holds them.
    const writeBills = job.kind === 'sync' && job.writeBills === true;
    // A writing sync's run record: the members whose autopay it wrote (issue 25), failed runs too.
    const tally = { billsWritten: 0 };
    const billsWritten = writeBills ? tally : { billsWritten: null };
    try {
      const result =
        job.kind === 'import'
          ? await this.pipeline.importAll(scope, integration, mindbody, stopping)
          : await this.pipeline.sync(scope, integration, mindbody, stopping, tally, writeBills);
      // Before the run's end state: a wizard that sees 'completed' sees what waits for the owner.
      if (job.kind === 'sync') await this.holdBills(scope, result.heldBills ?? []);
      await recordCalls();
      await this.integrations.finishProcess(
        scope,
        job.kind,
        true,
        new Date(),
        started,
        result.invalidEmails,
        billsWritten.billsWritten,
        (manager) =>
          this.audit.record(scope, manager, {
            kind: job.kind === 'import' ? 'import.run' : 'integration.synced',
            after: auditValue({
              [job.kind === 'import' ? 'source' : 'integration']: 'Mindbody',
              clients: result.clients,
              invalidEmails: result.invalidEmails,
              billsWritten: billsWritten.billsWritten ?? undefined,
              billsHeld: result.heldBills?.length,
            }),
          }),
      );
      if (job.kind === 'import') await this.enqueue(job.businessId, 'prices');
      return result;
    } catch (error) {
      this.logger.warn(
        stopping?.aborted
          ? `Mindbody ${job.kind} of business ${job.businessId} stopped: the API is shutting down (process state 'failed'; it can be run again)`
          : `Mindbody ${job.kind} of business ${job.businessId} failed: ${errorMessage(error)}`,
      );
      await recordCalls();
      await this.integrations.finishProcess(
        scope,
        job.kind,
        false,
        new Date(),
        undefined,
        null,
        billsWritten.billsWritten,
      );
      return null;
    } finally {
      await recordCalls();
      await this.clearIfRemoved(scope);
    }
  }

  /**
   * After a sync (issue 31): the bill changes a webhook's sync would have written are held for the
   * owner (`MindbodyRepository.holdPendingBills`); when none were held before, each owner of the
   * business is emailed 'N bills would change in Mindbody: review', queued in the transaction that
   * holds them. None (or a confirmed sync, which wrote them): nothing is pending any more.
   */
  private async holdBills(scope: BusinessScope, held: MindbodyBillChange[]): Promise<void> {
    if (held.length === 0) {
      await this.integrations.clearPendingBills(scope);
      return;
    }
    const owners = await this.integrations.siteOwners(scope.businessId);
    const emailed = await this.integrations.holdPendingBills(
      scope,
      held.length,
      billChangesFingerprint(held),
      async (manager) => {
        for (const owner of owners)
          await this.mail.queue(
            pendingBillsEmail(owner, held.length, this.config.publicOrigin),
            undefined,
            manager,
          );
      },
    );
    if (emailed) this.mail.wake();
  }

  /** Queues `job` again (for the next instance that starts) when the API stopped before it was done. */
  private async requeue(job: MindbodyJob, when: string): Promise<void> {
    try {
      await this.enqueue(job.businessId, job.kind, job.writeBills === true, undefined, {
        actorUserId: job.actorUserId,
        actorKind: job.actorKind,
      });
      this.logger.log(
        `Mindbody ${job.kind} of business ${job.businessId} queued again: the API shut down while ${when}`,
      );
    } catch (error) {
      this.logger.warn(
        `Mindbody ${job.kind} of business ${job.businessId} could not be queued again: ${errorMessage(error)}`,
      );
    }
  }

  /**
   * The 'prices' job: every managed member's autopay price; failures are logged (the next sync
   * prices what is missing); stopped by a shutdown, it is queued again.
   */
  private async priceQuietly(
    scope: BusinessScope,
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
  ): Promise<MindbodyRunResult | null> {
    try {
      const priced = await this.pipeline.priceMembers(
        scope,
        integration,
        mindbody,
        false,
        stopping,
      );
      return { clients: priced, autopayWrites: 0, invalidEmails: 0 };
    } catch (error) {
      if (stopping?.aborted) {
        await this.requeue({ businessId: integration.businessId, kind: 'prices' }, 'it ran');
      } else {
        this.logger.warn(
          `Mindbody prices of business ${integration.businessId} failed: ${errorMessage(error)}`,
        );
      }
      return null;
    } finally {
      await this.integrations.recordCalls(scope, mindbody.calls, false);
      await this.clearIfRemoved(scope);
    }
  }

  /** When 'Remove integration' happened while the job ran, clears the managed marks the job may have set since. */
  private async clearIfRemoved(scope: BusinessScope): Promise<void> {
    const now = await this.integrations.find(scope);
    if (!now || now.stage === 1) await this.integrations.reset(scope);
  }
}
