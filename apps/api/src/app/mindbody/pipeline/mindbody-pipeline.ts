import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { newPriceCents } from '@grove/contracts';
import { JobsService } from '../../jobs/jobs.service';
import { MindbodyCrypto } from '../persistence/mindbody-crypto';
import type { MindbodyAutopayContract, MindbodyClientPage } from '../client/mindbody-records';
import { MindbodySiteClient } from '../client/mindbody-site-client';
import type { MindbodyIntegrationEntity } from '../persistence/mindbody-integration.entity';
import {
  MindbodyMembersRepository,
  type AutopayTarget,
  type ManagedMemberInput,
  type ManagedProspectInput,
} from '../persistence/mindbody-members.repository';
import { MindbodySiteSession } from '../client/mindbody-site-session';
import { MindbodyRepository, type MindbodyProcessKind } from '../persistence/mindbody.repository';
import { errorMessage } from '../../common/error-message';
import { mapLimit } from '../../common/async/map-limit';
import { PageQueue } from '../../common/async/page-queue';

/** The pg-boss queue of Mindbody work (imports and syncs). */
const MINDBODY_QUEUE = 'mindbody';

/**
 * One job of one business: an import or a sync (each with SPEC §4's process state), or 'prices':
 * reading every managed member's contract for its autopay price, queued when an import completes.
 */
export interface MindbodyJob {
  businessId: string;
  kind: MindbodyProcessKind | 'prices';
}

/** Clients per `GET /client/clients` page (Mindbody's maximum). */
const CLIENT_PAGE_SIZE = 200;
/**
 * Client pages the import may fetch ahead of its writes; pages that arrived while a write ran are
 * written together (up to 5 × 200 = 1,000 members per statement). Measured on this machine, 8,940
 * members written 200 per statement took 650–1,613 ms, 600–2,000 per statement 461–741 ms (the
 * per-statement cost: planning, triggers, commit, a round trip), in the same runs.
 */
const PAGES_AHEAD = 5;
/** Contract reads / autopay writes in flight at once per job. */
const MINDBODY_CONCURRENCY = 8;

/** Autopay contracts read during one sync, by Mindbody client id (each client read once per run). */
type ContractsRead = Map<string, MindbodyAutopayContract[]>;

/**
 * The autopay amount a managed member should pay (SPEC §9, DESIGN §6), cents: contracts'
 * {@link newPriceCents} with the discount for referee when the member is itself a referred branch:
 * max(0, membership price − discountOnReferral × branches − discountForReferee if a branch).
 */
export function targetAutopayCents(
  target: AutopayTarget,
  onReferralCents: number,
  forRefereeCents: number,
): number {
  return newPriceCents(
    target.membershipPriceCents,
    onReferralCents,
    target.branches,
    target.isBranch ? forRefereeCents : 0,
  );
}

/** Counts of one run, for logs and tests. */
export interface MindbodyRunResult {
  clients: number;
  autopayWrites: number;
}

/**
 * Mindbody imports and syncs as pg-boss jobs (DESIGN §3, §6). One queue, `stately` policy with
 * `singletonKey` = business + kind (at most one queued job of each kind per business, whatever API
 * instance queued it), and inside the job a per-business advisory lock, so no two jobs of one
 * business (import, sync, prices) ever run at once. Each run ends with SPEC §4's process state 'completed <ISO time>' or
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
    private readonly members: MindbodyMembersRepository,
    private readonly siteClient: MindbodySiteClient,
    private readonly crypto: MindbodyCrypto,
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
   * so a queued 'prices' job never swallows an import or a sync.
   */
  async enqueue(businessId: string, kind: MindbodyJob['kind']): Promise<void> {
    await this.jobs.send<MindbodyJob>(
      MINDBODY_QUEUE,
      { businessId, kind },
      { singletonKey: `${businessId}:${kind}` },
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
    const integration = await this.integrations.find(job.businessId);
    const minStage = job.kind === 'sync' ? 4 : 2;
    if (!integration || integration.stage < minStage) return null;
    // One Mindbody client and one decrypted staff token for every call of this run.
    const mindbody = new MindbodySiteSession(
      integration,
      this.siteClient,
      this.crypto,
      this.integrations,
    );
    if (job.kind === 'prices') return this.priceQuietly(integration, mindbody, stopping);
    if (integration.processState !== 'running')
      await this.integrations.startProcess(job.businessId, minStage);
    const started = new Date();
    try {
      const result =
        job.kind === 'import'
          ? await this.importAll(integration, mindbody, stopping)
          : await this.sync(integration, mindbody, stopping);
      await this.integrations.finishProcess(job.businessId, job.kind, true, new Date(), started);
      if (job.kind === 'import') await this.enqueue(job.businessId, 'prices');
      return result;
    } catch (error) {
      this.logger.warn(
        stopping?.aborted
          ? `Mindbody ${job.kind} of business ${job.businessId} stopped: the API is shutting down (process state 'failed'; it can be run again)`
          : `Mindbody ${job.kind} of business ${job.businessId} failed: ${errorMessage(error)}`,
      );
      await this.integrations.finishProcess(job.businessId, job.kind, false, new Date());
      return null;
    } finally {
      await this.clearIfRemoved(job.businessId);
    }
  }

  /** Queues `job` again (for the next instance that starts) when the API stopped before it was done. */
  private async requeue(job: MindbodyJob, when: string): Promise<void> {
    try {
      await this.enqueue(job.businessId, job.kind);
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
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
  ): Promise<MindbodyRunResult | null> {
    try {
      const priced = await this.priceMembers(integration, mindbody, false, stopping);
      return { clients: priced, autopayWrites: 0 };
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
      await this.clearIfRemoved(integration.businessId);
    }
  }

  /** When 'Remove integration' happened while the job ran, clears the managed marks the job may have set since. */
  private async clearIfRemoved(businessId: string): Promise<void> {
    const now = await this.integrations.find(businessId);
    if (!now || now.stage === 1) await this.integrations.reset(businessId);
  }

  /**
   * Reads the contracts of the business's managed members (all, or only those without a known
   * autopay: never priced, or priced when they had no autopay contract, who may have bought one since)
   * and stores each NormalAutoPay as the membership price, one UPDATE per 200 members
   * (`MINDBODY_CONCURRENCY` contract reads at once). Mindbody's contract is the only place the
   * price lives, one request per client, so this runs after the import has made every member
   * visible (DESIGN §6).
   * @param contractsRead (sync) the contracts read are added here, for the autopay writes
   * @returns members priced
   * @throws `stopping.reason` when it stopped between batches (the batches before are stored)
   */
  private async priceMembers(
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    onlyUnpriced: boolean,
    stopping: AbortSignal | undefined,
    contractsRead?: ContractsRead,
  ): Promise<number> {
    // Clients whose contracts this run already read (the changed ones of a sync) are priced.
    const clientIds = (await this.members.managedClientIds(integration.businessId, onlyUnpriced)).filter(
      (clientId) => !contractsRead?.has(clientId),
    );
    let priced = 0;
    for (let start = 0; start < clientIds.length; start += CLIENT_PAGE_SIZE) {
      stopping?.throwIfAborted();
      const batch = clientIds.slice(start, start + CLIENT_PAGE_SIZE);
      const prices = await mapLimit(
        batch,
        MINDBODY_CONCURRENCY,
        async (clientId) => {
          const contracts = await mindbody.call((client) => client.autopayContracts(clientId));
          contractsRead?.set(clientId, contracts);
          return { clientId, autopayCents: contracts[0]?.amountCents ?? null };
        },
        stopping,
      );
      priced += await this.members.setPrices(integration.businessId, prices);
    }
    return priced;
  }

  /**
   * Import (SPEC §4 stage 2 → 3): every client page, upserted as it arrives; then referrals and
   * prospects. Prices follow in the 'prices' job (a contract read per client).
   */
  private async importAll(
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
  ): Promise<MindbodyRunResult> {
    const clients = await this.pullClients(integration, mindbody, undefined, null, stopping);
    return { clients, autopayWrites: 0 };
  }

  /**
   * Sync (SPEC §4 stage 4): clients changed since the last sync (each one's contracts read for its
   * price), members without a known autopay (never priced, or without an autopay contract when
   * last read: they may have bought one), then the autopay amount of every managed member whose
   * discounted price differs from what Mindbody bills. Each client's contracts are read at most
   * once per sync: the autopay writes reuse what the first two steps read (kept for the run; the
   * first sync reads every client, a few hundred bytes each). A second sync with nothing changed
   * reads only the contracts of members without an autopay contract, and writes nothing.
   */
  private async sync(
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
  ): Promise<MindbodyRunResult> {
    const contractsRead: ContractsRead = new Map();
    const clients = await this.pullClients(
      integration,
      mindbody,
      integration.lastSyncAt ?? undefined,
      contractsRead,
      stopping,
    );
    await this.priceMembers(integration, mindbody, true, stopping, contractsRead);
    const onReferral = integration.discountOnReferralCents ?? 0;
    const forReferee = integration.discountForRefereeCents ?? 0;
    const targets = (await this.members.autopayTargets(integration.businessId))
      .map((target) => ({ ...target, amount: targetAutopayCents(target, onReferral, forReferee) }))
      .filter((target) => target.amount !== target.autopayCents);
    let autopayWrites = 0;
    const billed: { memberId: string; autopayCents: number }[] = [];
    try {
      await mapLimit(
        targets,
        MINDBODY_CONCURRENCY,
        async ({ amount, ...target }) => {
          const contracts =
            contractsRead.get(target.clientId) ??
            (await mindbody.call((client) => client.autopayContracts(target.clientId)));
          for (const contract of contracts) {
            if (contract.amountCents === amount) continue;
            await mindbody.call((client) =>
              client.updateAutopayAmount(target.clientId, contract.clientContractId, amount),
            );
            autopayWrites += 1;
          }
          if (contracts.length > 0)
            billed.push({ memberId: target.memberId, autopayCents: amount });
        },
        stopping,
      );
    } finally {
      // One UPDATE for every member whose contracts now bill the target (also those done before a failure).
      await this.members.setAutopay(integration.businessId, billed);
    }
    return { clients, autopayWrites };
  }

  /**
   * Pages through `GET /client/clients` (all, or modified since `since`) while writing what has
   * arrived: a fetcher reads the pages one after the other, at most `PAGES_AHEAD` ahead of the
   * writer, and each write takes every page that arrived meanwhile as ONE statement (members
   * upserted, referrers already stored linked, progress recorded) in its own transaction. When
   * Mindbody is slower than the writes (any real latency) that is one write per page; when pages
   * arrive faster, up to `PAGES_AHEAD` pages share a write. A failure keeps what was written (a
   * re-run converges). Then links the remaining referrals and queues referred prospects, each one
   * set-based statement over the whole business.
   * @param contractsRead null for the import; for the sync, each non-prospect's contracts are also
   *   read (for its price) and kept here by client id (sync: few changed clients)
   * @param stopping once aborted, no page is fetched or written any more (the page under way is
   *   awaited, so nothing of this run touches the database after it returns)
   * @returns clients processed
   * @throws what the Mindbody client throws once its retries are spent, a database error, or
   *   `stopping.reason`
   */
  private async pullClients(
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    since: Date | undefined,
    contractsRead: ContractsRead | null,
    stopping: AbortSignal | undefined,
  ): Promise<number> {
    const businessId = integration.businessId;
    const prospects: ManagedProspectInput[] = [];
    const arrived = new PageQueue<MindbodyClientPage>(PAGES_AHEAD);
    const fetching = (async () => {
      try {
        let offset = 0;
        for (;;) {
          if (!(await arrived.waitForRoom())) return;
          stopping?.throwIfAborted();
          const page = await this.pricedPage(mindbody, offset, since, contractsRead, stopping);
          arrived.push(page);
          offset += page.clients.length;
          if (page.clients.length === 0 || offset >= page.total) break;
        }
        arrived.end();
      } catch (error) {
        arrived.fail(error);
      }
    })();
    let done = 0;
    try {
      for (let batch = await arrived.takeAll(); batch; batch = await arrived.takeAll()) {
        stopping?.throwIfAborted();
        const members: ManagedMemberInput[] = [];
        for (const page of batch) {
          for (const client of page.clients) {
            const name = `${client.firstName} ${client.lastName}`.trim() || `Client ${client.id}`;
            if (client.isProspect) {
              if (client.referredBy)
                prospects.push({
                  clientId: client.id,
                  name,
                  email: client.email ?? '',
                  referredBy: client.referredBy,
                });
              continue;
            }
            members.push({
              clientId: client.id,
              name,
              email: client.email ?? '',
              autopayCents: client.normalAutoPayCents,
              referredBy: client.referredBy,
              ended: client.membershipEnded,
            });
          }
          done += page.clients.length;
        }
        const total = Math.max(batch[batch.length - 1]?.total ?? 0, done);
        await this.members.upsertMembers(
          businessId,
          members,
          { done, total },
          contractsRead !== null,
        );
      }
    } finally {
      // Stops the fetcher at its next page; a request under way is left to end on its own (as
      // the old one-page prefetch was), so a failed write is reported without waiting for it.
      // When the API is stopping it is awaited: it may still renew the staff token (a write).
      arrived.close();
      if (stopping?.aborted) await fetching;
      else void fetching;
    }
    await this.members.linkReferrals(businessId);
    await this.members.upsertProspects(businessId, prospects);
    return done;
  }

  /**
   * One page of clients; with `contractsRead` each non-prospect gets its NormalAutoPay (contract
   * reads, `MINDBODY_CONCURRENCY` at once, none started once `stopping` is aborted), and its
   * contracts are kept there.
   * @throws as {@link pullClients}
   */
  private async pricedPage(
    mindbody: MindbodySiteSession,
    offset: number,
    since: Date | undefined,
    contractsRead: ContractsRead | null,
    stopping: AbortSignal | undefined,
  ): Promise<MindbodyClientPage> {
    const page = await mindbody.call((client) =>
      client.clientsPage({ offset, limit: CLIENT_PAGE_SIZE, modifiedSince: since }),
    );
    if (!contractsRead) return page;
    const clients = await mapLimit(
      page.clients,
      MINDBODY_CONCURRENCY,
      async (record) => {
        if (record.isProspect) return record;
        const contracts = await mindbody.call((client) => client.autopayContracts(record.id));
        contractsRead.set(record.id, contracts);
        return { ...record, normalAutoPayCents: contracts[0]?.amountCents ?? null };
      },
      stopping,
    );
    return { clients, total: page.total };
  }
}
