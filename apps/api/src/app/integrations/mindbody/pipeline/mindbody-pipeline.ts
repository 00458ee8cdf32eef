import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { mailboxOf, toPlainText } from '@grove/contracts';
import {
  billChange,
  billWrittenEntry,
  plannedAutopays,
  plannedBillChanges,
  type PlannedAutopay,
} from './bill-changes';
import type { MindbodyBillChange } from '@grove/contracts';
import type { MindbodyAutopayContract, MindbodyClientPage } from '../client/mindbody-records';
import { AuditLog } from '../../../platform/audit/audit-log';
import type { BusinessScope } from '../../../platform/database/business-scope';
import type { MindbodyIntegrationEntity } from '../persistence/mindbody-integration.entity';
import { LifecycleService } from '../../../membership/lifecycle/lifecycle.service';
import {
  MindbodyMembersRepository,
  type EndedBranch,
  type FirstPayment,
  type ManagedMemberInput,
  type MindbodyFactSource,
} from '../persistence/mindbody-members.repository';
import type { MindbodySiteSession } from '../client/mindbody-site-session';
import { BranchLapseNotices } from './branch-lapse-notices';
import { mapLimit } from '../../../platform/common/async/map-limit';
import { PageQueue } from '../../../platform/common/async/page-queue';
import { MembershipEvents } from '../../../membership/events/membership-events';
import { BranchQualificationService } from '../../../membership/branch-qualification/branch-qualification.service';

/** Clients per `GET /client/clients` page (Mindbody's maximum). */
const CLIENT_PAGE_SIZE = 200;
/**
 * Client pages the import may fetch ahead of its writes; pages that arrived while a write ran are
 * written together (up to 10 × 200 = 2,000 members per statement), which pays the per-statement
 * cost (planning, the rekey round trip, the email-key reads, commit) fewer times. Not more: a
 * statement of 2,000 members with their links takes 2–4 s on a machine at load 10–20, well
 * inside `DATABASE_STATEMENT_TIMEOUT_MS` (10 s); it bounds the pages held in memory too
 * (docs/decisions/import-write-floor.md, session 27).
 */
const PAGES_AHEAD = 10;
/** Contract reads / autopay writes in flight at once per job. */
const MINDBODY_CONCURRENCY = 8;

/** Autopay contracts read during one sync, by Mindbody client id (each client read once per run). */
type ContractsRead = Map<string, MindbodyAutopayContract[]>;

/** What Mindbody will charge each client next, from the contracts read (`setNextCharges`). */
function chargesOf(
  read: Iterable<[string, MindbodyAutopayContract[]]>,
): { clientId: string; chargeCents: number | null; chargeAt: string | null }[] {
  return [...read].map(([clientId, contracts]) => ({
    clientId,
    chargeCents: contracts[0]?.chargeCents ?? null,
    chargeAt: contracts[0]?.nextAutopayDate ?? null,
  }));
}

/** Counts of one run, for logs, tests and the run's summary. */
export interface MindbodyRunResult {
  clients: number;
  autopayWrites: number;
  /** Clients whose email is not one plain mailbox, stored with no email (issue 24 part 3). */
  invalidEmails: number;
  /**
   * A sync that does not write bills (one a webhook queued, issue 31): the bill changes it would
   * have written, held for the owner's confirmation (empty when none).
   */
  heldBills?: MindbodyBillChange[];
}

/**
 * A Mindbody client's name and email as Grove stores them (issue 24 part 3: data from Mindbody
 * follows the rules of data an owner types): the name as plain text (`toPlainText`: no control
 * characters or line breaks; `Client <id>` when nothing is left), the email as its one plain
 * mailbox (`mailboxOf`, RFC 5321/5322), or '' (no email: 'No email', never emailed) when
 * Mindbody's text is anything else (`nia@x.com, list@evil.example`, `carl@x.com\r\nBcc: …`).
 * @returns also whether an email was given and refused
 */
export function managedClientFields(client: {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
}): { name: string; email: string; emailRefused: boolean } {
  const name = toPlainText(`${client.firstName} ${client.lastName}`) || `Client ${client.id}`;
  const given = (client.email ?? '').trim();
  const email = given ? (mailboxOf(given) ?? '') : '';
  return { name, email, emailRefused: given !== '' && email === '' };
}

/** One client page as the import's writer takes it, mapped while earlier pages are written. */
interface PageToWrite {
  /** The page's non-prospect clients as managed members ({@link managedClientFields}). */
  members: ManagedMemberInput[];
  /** Every client's Id and UniqueId, prospects too (for `rekeyClients`). */
  keys: { clientId: string; uniqueId: number }[];
  /** Clients on the page (prospects too): what the run's progress counts. */
  clients: number;
  /** Clients whose email was refused (stored with none). */
  invalidEmails: number;
  /** The listing's total (PaginationResponse.TotalResults). */
  total: number;
}

/**
 * Maps a client page to what the writer stores: a Mindbody prospect is nobody's referral
 * (ReferredBy names no person) and is not queued as a member.
 */
function pageToWrite(page: MindbodyClientPage): PageToWrite {
  const members: ManagedMemberInput[] = [];
  let invalidEmails = 0;
  for (const client of page.clients) {
    if (client.isProspect) continue;
    const { name, email, emailRefused } = managedClientFields(client);
    if (emailRefused) invalidEmails += 1;
    members.push({
      clientId: client.id,
      uniqueId: client.uniqueId,
      name,
      email,
      autopayCents: client.normalAutoPayCents,
      referredBy: client.referredBy,
      ended: client.membershipEnded,
      suspended: client.membershipSuspended,
    });
  }
  return {
    members,
    keys: page.clients.map((client) => ({ clientId: client.id, uniqueId: client.uniqueId })),
    clients: page.clients.length,
    invalidEmails,
    total: page.total,
  };
}

/**
 * The steps of a Mindbody import, sync or pricing run (docs/architecture.md#mindbody), inside one job of one business
 * (the job, its lock and its process state are {@link MindbodyProcessor}'s in jobs/): client pages
 * written as they arrive, contract reads for prices, autopay writes. Every Mindbody call goes
 * through the run's {@link MindbodySiteSession}; `stopping` (the API shutting down) stops a run at
 * its next page or batch.
 */
@Injectable()
export class MindbodyPipeline {
  constructor(
    private readonly members: MindbodyMembersRepository,
    private readonly lapses: BranchLapseNotices,
    private readonly events: MembershipEvents,
    private readonly qualification: BranchQualificationService,
    private readonly lifecycle: LifecycleService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Reads the contracts of the business's managed members (all, or only those never priced or
   * marked by a contract event since: `managedClientIds`)
   * and stores each NormalAutoPay as the membership price, one UPDATE per 200 members
   * (`MINDBODY_CONCURRENCY` contract reads at once). Mindbody's contract is the only place the
   * price lives, one request per client, so this runs after the import has made every member
   * visible (docs/architecture.md#mindbody).
   * @param contractsRead (sync) the contracts read are added here, for the autopay writes
   * @returns members priced
   * @throws `stopping.reason` when it stopped between batches (the batches before are stored)
   */
  async priceMembers(
    scope: BusinessScope,
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    onlyUnpriced: boolean,
    stopping: AbortSignal | undefined,
    contractsRead?: ContractsRead,
  ): Promise<number> {
    // Clients whose contracts this run already read (the changed ones of a sync) are priced.
    const clientIds = (await this.members.managedClientIds(scope, onlyUnpriced)).filter(
      (clientId) => !contractsRead?.has(clientId),
    );
    let priced = 0;
    for (let start = 0; start < clientIds.length; start += CLIENT_PAGE_SIZE) {
      stopping?.throwIfAborted();
      const batch = clientIds.slice(start, start + CLIENT_PAGE_SIZE);
      const read = new Map<string, MindbodyAutopayContract[]>();
      const prices = await mapLimit(
        batch,
        MINDBODY_CONCURRENCY,
        async (clientId) => {
          const contracts = await mindbody.call((client) => client.autopayContracts(clientId));
          contractsRead?.set(clientId, contracts);
          read.set(clientId, contracts);
          return { clientId, autopayCents: contracts[0]?.amountCents ?? null };
        },
        stopping,
      );
      priced += await this.members.setPrices(scope, prices);
      await this.members.setNextCharges(scope, chargesOf(read));
    }
    return priced;
  }

  /**
   * Import (docs/product.md#mindbody-stages stage 2 → 3): every client page, upserted as it arrives; then ended
   * branches detached, then the first payments of pending branches (see {@link recordFirstPayments}).
   * Prices follow in the 'prices' job (a contract read per client).
   */
  async importAll(
    scope: BusinessScope,
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
  ): Promise<MindbodyRunResult> {
    const { clients, invalidEmails } = await this.pullClients(
      scope,
      integration,
      mindbody,
      undefined,
      null,
      stopping,
    );
    await this.qualify(scope, mindbody, stopping);
    return { clients, autopayWrites: 0, invalidEmails };
  }

  /**
   * Sync (docs/product.md#mindbody-stages stage 4): clients changed since the last sync (each one's contracts read for its
   * price and suspension; inactive profiles too), the first payments of pending branches
   * ({@link recordFirstPayments}), members never priced or whose contract event arrived, then the
   * autopay amount of every managed member whose discounted price differs from what Mindbody bills,
   * each written contract read back (what Mindbody will charge). Each client's contracts are read
   * at most once per sync before the writes: the writes reuse what the first steps read (kept for
   * the run; the first sync reads every client, a few hundred bytes each). A second sync with
   * nothing changed reads the client pages only, and writes nothing. The autopays written are those
   * of {@link plannedAutopays}, as the owner's preview showed them (issue 25).
   * Only a sync the owner confirmed writes (issue 31: no bill changes unconfirmed, ever): with
   * `writeBills` false (a sync a webhook queued) it reads and stores as above, writes nothing to
   * Mindbody, and returns the changes it would have written (`heldBills`, as
   * `GET /api/mindbody/sync/preview` lists them), for the owner to review.
   * @param tally counts the members whose autopay was written as they are written, so a run that
   *   fails midway still tells how many bills it changed (its run record)
   * @param writeBills true only for a sync the owner confirmed
   */
  async sync(
    scope: BusinessScope,
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
    tally: { billsWritten: number } = { billsWritten: 0 },
    writeBills = true,
  ): Promise<MindbodyRunResult> {
    const contractsRead: ContractsRead = new Map();
    const { clients, invalidEmails } = await this.pullClients(
      scope,
      integration,
      mindbody,
      integration.lastSyncAt ?? undefined,
      contractsRead,
      stopping,
    );
    await this.qualify(scope, mindbody, stopping);
    await this.priceMembers(scope, integration, mindbody, true, stopping, contractsRead);
    const onReferral = integration.discountOnReferralCents ?? 0;
    const forReferee = integration.discountForRefereeCents ?? 0;
    const targets = plannedAutopays(
      await this.members.autopayTargets(scope),
      onReferral,
      forReferee,
    );
    if (!writeBills) {
      await this.members.setNextCharges(scope, chargesOf(contractsRead));
      return { clients, autopayWrites: 0, invalidEmails, heldBills: plannedBillChanges(targets) };
    }
    let autopayWrites = 0;
    const billed: { memberId: string; autopayCents: number }[] = [];
    const written: PlannedAutopay[] = [];
    try {
      await mapLimit(
        targets,
        MINDBODY_CONCURRENCY,
        async ({ amount, ...target }) => {
          const contracts =
            contractsRead.get(target.clientId) ??
            (await mindbody.call((client) => client.autopayContracts(target.clientId)));
          let wrote = false;
          for (const contract of contracts) {
            if (contract.amountCents === amount) continue;
            if (await mindbody.call((client) => client.updateAutopayAmount(contract, amount))) {
              autopayWrites += 1;
              wrote = true;
            }
          }
          if (wrote) {
            tally.billsWritten += 1;
            written.push({ amount, ...target });
          }
          // What Mindbody will now charge (tax and other products included), read back.
          if (wrote)
            contractsRead.set(
              target.clientId,
              await mindbody.call((client) => client.autopayContracts(target.clientId)),
            );
          if (contracts.length > 0)
            billed.push({ memberId: target.memberId, autopayCents: amount });
        },
        stopping,
      );
    } finally {
      // One UPDATE for every member whose contracts now bill the target (also those done before a
      // failure), and in its transaction a 'bill.written' entry per member whose bill was written.
      await this.members.transaction(async (manager) => {
        await this.members.setAutopay(scope, billed, manager);
        await this.audit.recordMany(
          scope,
          manager,
          written.map((bill) =>
            billWrittenEntry('Mindbody', billChange(bill, bill.autopayCents, bill.amount)),
          ),
        );
      });
      await this.members.setNextCharges(scope, chargesOf(contractsRead));
    }
    return { clients, autopayWrites, invalidEmails };
  }

  /**
   * After a run's client writes: the first payments of pending branches, then
   * `BranchQualificationService.refresh` (docs/product.md#branch-qualification), which starts the
   * branches the business's rule now lets count and lapses or resumes those whose membership was
   * suspended, ended or resumed, with their referrers' ledger lines and emails (the one place they
   * come from); then a ledger line for every other managed member whose price the run moved
   * ('mindbody_sync': a branch linked or detached, discounts saved since). Before a sync's autopay writes, so those count
   * the branches as they now stand.
   */
  private async qualify(
    scope: BusinessScope,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
  ): Promise<void> {
    await this.recordFirstPayments(scope, mindbody, stopping);
    stopping?.throwIfAborted();
    await this.qualification.refresh(scope);
    await this.members.recordManagedPrices(scope);
  }

  /**
   * Under the 'first_payment' rule (docs/product.md#branch-qualification), asks Mindbody when each
   * pending branch whose first payment Grove does not know yet first paid (one
   * `GET /client/clientpurchases` per such branch, `MINDBODY_CONCURRENCY` at once) and stores the
   * payments found, one UPDATE per 200 branches. Nobody else is asked: a branch already counting
   * or already known to have paid costs nothing, and a business on another rule no call at all.
   * A payment seen by a `clientSale.created` webhook is stored before the sync it queues, so that
   * sync does not ask for it again.
   * @throws `stopping.reason` when it stopped between batches (the batches before are stored)
   */
  private async recordFirstPayments(
    scope: BusinessScope,
    mindbody: MindbodySiteSession,
    stopping: AbortSignal | undefined,
  ): Promise<void> {
    const clientIds = await this.members.firstPaymentCandidates(scope);
    const until = new Date();
    for (let start = 0; start < clientIds.length; start += CLIENT_PAGE_SIZE) {
      stopping?.throwIfAborted();
      const payments = await mapLimit(
        clientIds.slice(start, start + CLIENT_PAGE_SIZE),
        MINDBODY_CONCURRENCY,
        async (clientId): Promise<FirstPayment | null> => {
          const paidAt = await mindbody.call((client) => client.firstPayment(clientId, until));
          return paidAt && { clientId, paidAt };
        },
        stopping,
      );
      await this.members.setFirstPaid(
        scope,
        payments.filter((payment): payment is FirstPayment => payment !== null),
      );
    }
  }

  /**
   * Pages through `GET /client/clients` (all, or modified since `since`) while writing what has
   * arrived: a fetcher reads the pages one after the other, at most `PAGES_AHEAD` ahead of the
   * writer, and maps each to the members to store as it arrives (`pageToWrite`, while the writer
   * waits for the database); each write takes every page that arrived meanwhile as ONE statement (members
   * upserted, referrers already stored linked, progress recorded) in its own transaction. When
   * Mindbody is slower than the writes (any real latency) that is one write per page; when pages
   * arrive faster, up to `PAGES_AHEAD` pages share a write. A failure keeps what was written (a
   * re-run converges). `ReferredBy` is stored as each member's referral source and links nobody;
   * Mindbody prospects are not queued. Then detaches the branches whose membership ended (one
   * set-based statement over the whole business) and, when the business's automatic-link setting
   * is on, gives every member this run added a referral link.
   * @param contractsRead null for the import; for the sync, each non-prospect's contracts are also
   *   read (for its price) and kept here by client id (sync: few changed clients)
   * @param stopping once aborted, no page is fetched or written any more (the page under way is
   *   awaited, so nothing of this run touches the database after it returns)
   * @returns clients processed
   * @throws what the Mindbody client throws once its retries are spent, a database error, or
   *   `stopping.reason`
   */
  private async pullClients(
    scope: BusinessScope,
    integration: MindbodyIntegrationEntity,
    mindbody: MindbodySiteSession,
    since: Date | undefined,
    contractsRead: ContractsRead | null,
    stopping: AbortSignal | undefined,
  ): Promise<{ clients: number; invalidEmails: number }> {
    // A sync reads contracts; its facts say 'mindbody' (by hand or queued by a webhook), the import's 'import'.
    const source: MindbodyFactSource = contractsRead !== null ? 'mindbody' : 'import';
    const startedAt = await this.members.now();
    const arrived = new PageQueue<PageToWrite>(PAGES_AHEAD);
    const fetching = (async () => {
      try {
        let offset = 0;
        for (;;) {
          if (!(await arrived.waitForRoom())) return;
          stopping?.throwIfAborted();
          const page = await this.pricedPage(mindbody, offset, since, contractsRead, stopping);
          // Mapped here, while the writer waits for its statement, not after it.
          arrived.push(pageToWrite(page));
          offset += page.clients.length;
          if (page.clients.length === 0 || offset >= page.total) break;
        }
        arrived.end();
      } catch (error) {
        arrived.fail(error);
      }
    })();
    let done = 0;
    let invalidEmails = 0;
    try {
      for (let batch = await arrived.takeAll(); batch; batch = await arrived.takeAll()) {
        stopping?.throwIfAborted();
        const members = batch.flatMap((page) => page.members);
        for (const page of batch) {
          invalidEmails += page.invalidEmails;
          done += page.clients;
        }
        const total = Math.max(batch[batch.length - 1]?.total ?? 0, done);
        // A client renumbered in Mindbody (a new Id, the same UniqueId) stays the same row.
        await this.members.rekeyClients(
          scope,
          batch.flatMap((page) => page.keys),
        );
        await this.members.upsertMembers(
          scope,
          members,
          { done, total },
          contractsRead !== null,
          source,
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
    // The branches detached, their referrers' ledger lines and "{friend}'s membership ended"
    // emails in one transaction (issue 31 item 4): a crash or a failed queue leaves none of them,
    // and the next run finds the same branches ended and does it again.
    await this.members.transaction(async (manager) => {
      const ended = await this.members.detachEndedBranches(scope, source, manager);
      await this.recordBranchesEnded(scope, ended, manager);
      await this.lapses.send(scope, ended, manager);
    });
    await this.events.emit('members.bulk-added', { scope, since: startedAt });
    return { clients: done, invalidEmails };
  }

  /**
   * For each branch detached because its membership ended, its referrer's ledger line
   * ('branch_removed', naming the branch): the referrer pays again what the branch took off.
   */
  private async recordBranchesEnded(
    scope: BusinessScope,
    ended: readonly EndedBranch[],
    manager: EntityManager,
  ): Promise<void> {
    const at = new Date().toISOString();
    for (const branch of ended)
      await this.lifecycle.recordEffectivePrices(
        scope,
        [branch.referrerId],
        {
          reason: 'branch_removed',
          branchId: branch.branchId,
          cause: `branch_removed:${branch.branchId}:${at}`,
        },
        manager,
      );
  }

  /**
   * One page of clients; with `contractsRead` each non-prospect gets its NormalAutoPay and, when
   * its contract's autopay is suspended, its suspension (contract reads, `MINDBODY_CONCURRENCY` at
   * once, none started once `stopping` is aborted), and its autopay contracts are kept there.
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
        const contracts = await mindbody.call((client) => client.contracts(record.id));
        contractsRead.set(record.id, contracts.autopay);
        return {
          ...record,
          normalAutoPayCents: contracts.autopay[0]?.amountCents ?? null,
          membershipSuspended: record.membershipSuspended || contracts.suspended,
        };
      },
      stopping,
    );
    return { clients, total: page.total };
  }
}
