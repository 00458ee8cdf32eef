import { randomUUID } from 'node:crypto';
import { HttpException, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { errorMessage } from '../../../platform/common/error-message';
import {
  jobActor,
  jobScope,
  type BusinessScope,
  type JobActor,
} from '../../../platform/database/business-scope';
import { JobsService } from '../../../platform/jobs/jobs.service';
import type { StripeMembersStatusDto } from '../http/dto/stripe-members-replies.dto';
import {
  StripeMemberRunsRepository,
  type StripeRunKind,
} from '../persistence/stripe-member-runs.repository';
import { StripeMembersService } from '../stripe-members.service';

/** The pg-boss queue of the Stripe import and sync runs. */
export const STRIPE_MEMBER_RUN_QUEUE = 'stripe-members.run';

/** Seconds a run's job may take before pg-boss takes it as lost (a crash) and retries it. */
const RUN_EXPIRE_SECONDS = 30 * 60;

/** A run still 'running' this long after it started is taken as lost: a new one may start. */
const STALE_RUN_SECONDS = RUN_EXPIRE_SECONDS * 3 + 60;

/** The job of one run: the business, the run it belongs to, who started it, and a sync's choices. */
interface StripeMemberRunJob extends JobActor {
  businessId: string;
  runId: string;
  kind: StripeRunKind;
  /** A sync: the confirmed preview's fingerprint (its bills' idempotency keys carry it). */
  fingerprint?: string;
  /** A sync: the owner let later webhook changes be written without review. */
  automatic?: boolean;
}

/**
 * The Stripe import and the owner's confirmed Stripe sync as background jobs with progress
 * (issue 32, docs/stripe.md#member-billing; docs/architecture.md#job-path), as Mindbody's import
 * and sync are: the route records the run (`stripe_member_runs`: at most one running per business,
 * a second click while it runs starts nothing) and queues its job; the job writes its progress as
 * it goes (subscriptions listed, bills written) and ends the run 'done' with its counts, or
 * 'failed' with the owner's message after its last attempt. The wizard polls
 * `GET /api/stripe-members` (`run`).
 *
 * A crash or a deploy does not leave a run stuck: a job the API stops (its `stopping` signal) or
 * loses (pg-boss expires it after RUN_EXPIRE_SECONDS) is retried (2 retries, backoff), and a retry
 * is idempotent: the import converges (each page one upsert), the sync writes only the confirmed
 * bills still to write (those written are unchanged now), each Stripe write under its own
 * idempotency key. A job of an older run (`runId`) does nothing.
 */
@Injectable()
export class StripeMemberRunsService implements OnModuleInit {
  private readonly logger = new Logger(StripeMemberRunsService.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly runs: StripeMemberRunsRepository,
    private readonly stripeMembers: StripeMembersService,
  ) {}

  /** Creates the queue: stately (one queued job a business and kind), 2 retries with backoff. */
  async onModuleInit(): Promise<void> {
    await this.jobs.register<StripeMemberRunJob>(
      {
        name: STRIPE_MEMBER_RUN_QUEUE,
        policy: 'stately',
        retryLimit: 2,
        retryDelay: 5,
        retryBackoff: true,
        expireInSeconds: RUN_EXPIRE_SECONDS,
      },
      async (data, job, stopping) => {
        const last = job.retryCount >= job.retryLimit;
        await this.run(data, stopping, last);
      },
    );
  }

  /**
   * 'Import members': starts an import run unless a run is under way (then nothing changes).
   * @returns the status (202), its `run` running
   * @throws StripeNotConnectedException 409
   */
  async startImport(scope: BusinessScope): Promise<StripeMembersStatusDto> {
    await this.stripeMembers.assertConnected(scope);
    await this.start(scope, 'import', null, null, {});
    return this.stripeMembers.status(scope);
  }

  /**
   * The owner's confirmed sync: `confirm` must be the preview's fingerprint as it is now; then a
   * sync run of exactly those bills starts, unless a run is under way (then nothing changes).
   * @returns the status (202), its `run` running
   * @throws StripeNotConnectedException 409, StripeDiscountsFirstException 409,
   *   StripeSyncConfirmRequiredException 400, StripeSyncPreviewStaleException 409
   */
  async startSync(
    scope: BusinessScope,
    confirm: string | undefined,
    automatic: boolean,
  ): Promise<StripeMembersStatusDto> {
    const { confirmed, fingerprint } = await this.stripeMembers.confirmSync(scope, confirm);
    await this.start(scope, 'sync', confirmed, Object.keys(confirmed).length, {
      fingerprint,
      automatic,
    });
    return this.stripeMembers.status(scope);
  }

  private async start(
    scope: BusinessScope,
    kind: StripeRunKind,
    confirmed: Record<string, number> | null,
    total: number | null,
    extra: Pick<StripeMemberRunJob, 'fingerprint' | 'automatic'>,
  ): Promise<void> {
    const runId = randomUUID();
    if (!(await this.runs.start(scope, runId, kind, confirmed, total, STALE_RUN_SECONDS))) return;
    await this.jobs.send<StripeMemberRunJob>(
      STRIPE_MEMBER_RUN_QUEUE,
      { ...extra, ...jobActor(scope), businessId: scope.businessId, runId, kind },
      { singletonKey: `${scope.businessId}:${kind}` },
    );
  }

  /**
   * Runs one attempt of a run's job. @param last this is the job's last attempt: a failure ends
   * the run 'failed' with the owner's message (else the attempt's error is thrown and pg-boss
   * retries it)
   */
  async run(job: StripeMemberRunJob, stopping: AbortSignal, last: boolean): Promise<void> {
    const scope = jobScope(job);
    const run = await this.runs.find(scope);
    if (run?.runId !== job.runId || run.state !== 'running') return;
    try {
      if (job.kind === 'import') {
        const counts = await this.stripeMembers.import(
          scope,
          (listed) => this.runs.progress(scope, job.runId, listed, null),
          stopping,
        );
        await this.runs.finish(scope, job.runId, { state: 'done', result: counts });
      } else {
        const billsWritten = await this.stripeMembers.runSync(
          scope,
          {
            confirmed: run.confirmed ?? {},
            fingerprint: job.fingerprint ?? '',
            automatic: job.automatic ?? false,
          },
          (written, total) => this.runs.progress(scope, job.runId, written, total),
          stopping,
        );
        await this.runs.finish(scope, job.runId, { state: 'done', result: { billsWritten } });
      }
    } catch (error) {
      this.logger.warn(`Stripe ${job.kind} run failed: ${errorMessage(error)}`);
      if (last)
        await this.runs.finish(scope, job.runId, { state: 'failed', error: ownerMessage(error) });
      throw error;
    }
  }
}

/** What a failed run says when nothing refused it (the API stopped, the database failed). */
export const STRIPE_RUN_INTERRUPTED = 'it was interrupted';

/**
 * What the owner reads of a failed run: the refusal's own message (the key refused, Stripe
 * unavailable: the client's exceptions), else `STRIPE_RUN_INTERRUPTED`.
 */
function ownerMessage(error: unknown): string {
  if (error instanceof HttpException) {
    const body = error.getResponse();
    const message =
      typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? error.message);
    return Array.isArray(message) ? message.join(', ') : String(message);
  }
  return STRIPE_RUN_INTERRUPTED;
}
