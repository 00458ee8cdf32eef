import { Logger } from '@nestjs/common';
import { errorMessage } from '../common/error-message';
import type { BackgroundRunRow, BackgroundRunsTable } from '../database/background-runs';
import { jobActor, jobScope, type BusinessScope, type JobActor } from '../database/business-scope';
import type { JobsService } from './jobs.service';

/**
 * The data of a background run's job: the business, who started the run (its audit entries name
 * them), and what the run needs of the request.
 */
type BackgroundRunJobData<Extra> = Extra & JobActor & { businessId: string };

/** A run's state as the screens poll it ('idle' before the first run). */
export type BackgroundRunState = Pick<BackgroundRunRow, 'total' | 'processed' | 'created'> & {
  status: 'idle' | BackgroundRunRow['status'];
};

/**
 * One click → a background run over a business's members with progress (docs/architecture.md#job-path),
 * as 'Create links for all members without one' and 'Email all links' do: {@link start} records
 * the run (at most one running per business: a second click while it runs queues nothing) and
 * queues its pg-boss job in the same transaction; the job calls the `work` given to {@link register} in batches that
 * record their progress (`BackgroundRunsTable.recordProgress`) and ends the run 'done', or
 * 'failed' after its last attempt (2 retries; `work` must carry on where an attempt stopped, or
 * go through everything again after `resetProgress`). Each recorded batch is a sign of life: a
 * run silent for STALE_RUN_SECONDS is lost ('failed' to the screen, startable again). {@link state}
 * is what the screen polls.
 */
export class BackgroundRun<Extra extends object = Record<string, never>> {
  private readonly logger: Logger;

  /**
   * @param queue the pg-boss queue of this kind of run (e.g. `referral-links.all`)
   * @param runs the table of this kind of run
   */
  constructor(
    private readonly jobs: JobsService,
    private readonly queue: string,
    private readonly runs: BackgroundRunsTable,
  ) {
    this.logger = new Logger(`BackgroundRun ${queue}`);
  }

  /**
   * Registers the run's queue and handler (call in `onModuleInit`).
   * @param work goes through the business's members; `startedAt` is when the run started
   *   (database time), `extra` what {@link start} was given; throws when `stopping` is aborted
   *   or a write fails (retried)
   */
  async register(
    work: (
      scope: BusinessScope,
      run: { startedAt: Date; extra: Extra },
      stopping: AbortSignal,
    ) => Promise<void>,
  ): Promise<void> {
    await this.jobs.register<BackgroundRunJobData<Extra>>(
      { name: this.queue, retryLimit: 2, retryDelay: 2, retryBackoff: true },
      async (data, job, stopping) => {
        const scope = jobScope(data);
        try {
          const run = await this.runs.find(scope);
          if (run?.status !== 'running') return;
          const { businessId: _businessId, actorUserId: _user, actorKind: _kind, ...extra } = data;
          await work(
            scope,
            { startedAt: run.startedAt, extra: extra as unknown as Extra },
            stopping,
          );
          await this.runs.finish(scope, 'done');
        } catch (error) {
          if (job.retryCount >= job.retryLimit) await this.runs.finish(scope, 'failed');
          this.logger.warn(`run failed: ${errorMessage(error)}`);
          throw error;
        }
      },
    );
  }

  /**
   * Starts a run over `total` members unless one is running (idempotent); a run of 0 is 'done'
   * at once and queues nothing. The job acts as `scope`'s author (`jobActor`): the member of staff
   * who clicked is the author of what the run records in the audit log.
   * @param extra what the run's work needs of the request (kept in the job's data: no secrets,
   *   no personal data)
   */
  async start(scope: BusinessScope, total: number, extra: Extra): Promise<void> {
    const started = await this.runs.start(scope, total, (manager) =>
      this.jobs.send<BackgroundRunJobData<Extra>>(
        this.queue,
        { ...extra, ...jobActor(scope), businessId: scope.businessId },
        { manager },
      ),
    );
    if (started && total > 0) this.jobs.wake(this.queue);
  }

  /**
   * The business's latest run, 'idle' with zeros when none; `processed` never above `total`. A
   * lost run (`stale`: silent for STALE_RUN_SECONDS) is 'failed', which the screens show as
   * stopped early with a click to finish it.
   */
  async state(scope: BusinessScope): Promise<BackgroundRunState> {
    const run = await this.runs.find(scope);
    if (!run) return { status: 'idle', total: 0, processed: 0, created: 0 };
    const { total, processed, created } = run;
    const status = run.stale ? 'failed' : run.status;
    return { status, total, processed: Math.min(processed, total), created };
  }
}
