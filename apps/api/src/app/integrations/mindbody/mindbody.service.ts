import { Injectable, Logger } from '@nestjs/common';
import { type ClientSaleEventData, type WebhookDelivery } from '@grove/api-mindbody';
import {
  isPlainText,
  type MindbodyBillChange,
  type MindbodyBillChanges,
  type MindbodySiteActivation,
  type MindbodyStatus,
} from '@grove/contracts';
import { MindbodyAuthError, MindbodyRequestError } from '@grove/api-mindbody';
import { AppConfig } from '../../platform/config/app-config';
import type { MindbodyCredentialsDto } from './http/dto/mindbody-credentials.dto';
import type { MindbodyDiscountsDto } from './http/dto/mindbody-discounts.dto';
import { MindbodyCrypto } from './persistence/mindbody-crypto';
import { MindbodyLoginRefusedError } from './client/mindbody-records';
import { MindbodySiteClient } from './client/mindbody-site-client';
import type { MindbodyIntegrationEntity } from './persistence/mindbody-integration.entity';
import {
  MindbodyMembersRepository,
  type FirstPayment,
} from './persistence/mindbody-members.repository';
import { BranchLapseNotices } from './pipeline/branch-lapse-notices';
import {
  BILL_CHANGES_PAGE_SIZE,
  billChange,
  billChangesFingerprint,
  billWrittenEntry,
  billChangesPage,
  plannedAutopays,
  plannedBillChanges,
} from './pipeline/bill-changes';
import { MindbodyProcessor } from './jobs/mindbody-processor';
import {
  MindbodyFailedException,
  MindbodyInvalidCredentialsException,
  MindbodySiteNotActivatedException,
  MindbodySyncConfirmRequiredException,
  MindbodySyncPreviewStaleException,
  MindbodyUnknownSiteException,
  MindbodyWebhookInvalidException,
  MindbodyWebhookSignatureException,
  MindbodyWrongStageException,
  MindbodySiteClaimedException,
} from './mindbody.exceptions';
import { MindbodyWebhookKeys } from './persistence/mindbody-webhook-keys';
import { MindbodyRepository } from './persistence/mindbody.repository';
import { MailService } from '../../platform/mail/mail.service';
import { siteClaimAttemptEmail } from './site-claim-email';
import { errorMessage } from '../../platform/common/error-message';
import { mapLimit } from '../../platform/common/async/map-limit';
import { MindbodySiteSession } from './client/mindbody-site-session';
import { LifecycleService } from '../../membership/lifecycle/lifecycle.service';
import { jobActor, webhookScope, type BusinessScope } from '../../platform/database/business-scope';
import { AuditLog, settingChange } from '../../platform/audit/audit-log';
import { BillingGate } from '../../platform/billing/billing-gate';

/** What a sync needs done first (`MindbodyWrongStageException`). */
const SYNC_NEEDS = 'import members and save discounts';

/** Path of the webhook endpoint, appended to the public origin when subscribing. */
const MINDBODY_WEBHOOK_PATH = '/api/mindbody/webhooks';

/** The status of a business without an integration row (docs/product.md#entities: mindbodyIntegrationStage defaults to 1). */
const STAGE_ONE: MindbodyStatus = {
  stage: 1,
  siteId: null,
  discounts: null,
  processState: null,
  progress: null,
  lastSyncAt: null,
  invalidEmails: null,
};

/**
 * The buyer's payment a `clientSale.created` delivery tells of, or null when it paid nothing
 * (a comp, a zero sale) or the delivery lacks the buyer or a valid sale time.
 */
function paymentOf(sale: ClientSaleEventData): FirstPayment | null {
  const paidAt = Date.parse(String(sale?.saleDateTime));
  const clientId = sale?.purchasingClientId;
  if (!(Number(sale?.totalAmountPaid) > 0) || Number.isNaN(paidAt)) return null;
  if ((typeof clientId !== 'string' && typeof clientId !== 'number') || clientId === '')
    return null;
  return { clientId: String(clientId), paidAt: new Date(paidAt) };
}

/** What the wizard may see of an integration: never credentials, tokens or keys. */
function toMindbodyStatus(row: MindbodyIntegrationEntity | null): MindbodyStatus {
  if (!row || row.stage === 1) return STAGE_ONE;
  return {
    stage: row.stage,
    siteId: row.siteId,
    discounts:
      row.discountOnReferralCents === null
        ? null
        : {
            discountOnReferralCents: row.discountOnReferralCents,
            discountForRefereeCents: row.discountForRefereeCents ?? 0,
          },
    processState: row.processState,
    progress:
      row.progressDone === null
        ? null
        : { done: row.progressDone, total: row.progressTotal ?? row.progressDone },
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    invalidEmails: row.invalidEmails,
    ...(row.callsMonth
      ? {
          mindbodyCalls: {
            lastRun: row.lastRunCalls,
            // A count of an earlier month is no count of this one.
            thisMonth:
              String(row.callsMonth).slice(0, 7) === new Date().toISOString().slice(0, 7)
                ? row.monthCalls
                : 0,
          },
        }
      : {}),
    ...(row.lastSyncBillsWritten !== null && row.lastSyncBillsWritten !== undefined
      ? { lastSyncBillsWritten: row.lastSyncBillsWritten }
      : {}),
    ...(row.stage === 4 && row.pendingBillsCount && row.pendingBillsSince
      ? {
          pendingBills: {
            count: row.pendingBillsCount,
            since: row.pendingBillsSince.toISOString(),
          },
        }
      : {}),
  };
}

/**
 * The Mindbody setup wizard's rules (docs/product.md#mindbody-setup Mindbody setup, docs/product.md#mindbody-stages stage table, docs/product.md#validation-mindbody, docs/product.md#errors). Every method
 * takes the session's `BusinessScope` first (webhooks: `webhookScope` of the subscription whose
 * key signed the delivery). Credentials are sealed before they are stored and never returned or logged.
 */
@Injectable()
export class MindbodyService {
  private readonly logger = new Logger(MindbodyService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly integrations: MindbodyRepository,
    private readonly members: MindbodyMembersRepository,
    private readonly siteClient: MindbodySiteClient,
    private readonly crypto: MindbodyCrypto,
    private readonly processor: MindbodyProcessor,
    private readonly lapses: BranchLapseNotices,
    private readonly lifecycle: LifecycleService,
    private readonly mail: MailService,
    private readonly billing: BillingGate,
    private readonly webhookKeys: MindbodyWebhookKeys,
    private readonly audit: AuditLog,
  ) {}

  /**
   * docs/product.md#entities, docs/product.md#states: stage, discounts (cents), process state, progress, last sync, Mindbody calls;
   * at stage 4, whether webhooks are down (the account subscription's hourly check). Stage 1
   * without a row.
   */
  async status(scope: BusinessScope): Promise<MindbodyStatus> {
    const status = toMindbodyStatus(await this.integrations.find(scope));
    if (status.stage !== 4) return status;
    const subscription = await this.integrations.accountSubscription();
    return subscription?.downSince
      ? {
          ...status,
          webhooksDown: {
            since: subscription.downSince.toISOString(),
            status: subscription.status ?? 'Unknown',
          },
        }
      : status;
  }

  /**
   * docs/product.md#mindbody-setup stage 1, first step (issue 22): whether the site has activated Grove's developer
   * account, and if not the activation code and link its owner opens ('Check again' asks again).
   * Stateless: nothing is stored.
   * @throws MindbodyUnknownSiteException 400 when Mindbody has no such site
   * @throws MindbodyFailedException 502 'Something went wrong' when Mindbody cannot be reached or refuses Grove
   */
  async siteActivation(_scope: BusinessScope, siteId: string): Promise<MindbodySiteActivation> {
    try {
      return await this.siteClient.siteActivation(siteId);
    } catch (error) {
      if (error instanceof MindbodyRequestError && (error.status === 400 || error.status === 404))
        throw new MindbodyUnknownSiteException();
      this.logger.warn(`Mindbody site activation check failed: ${errorMessage(error)}`);
      throw new MindbodyFailedException();
    }
  }

  /**
   * docs/product.md#mindbody-stages stage 1 → 2: checks the credentials by issuing a staff token, then stores them sealed.
   * A refused login on a site that has not activated Grove yet is told apart (issue 22).
   * @throws MindbodySiteNotActivatedException 400 when the site has not activated Grove's access
   * @throws MindbodyInvalidCredentialsException 400 'Invalid credentials provided' (nothing stored, stage unchanged)
   * @throws MindbodySiteClaimedException 409 when another business holds the site (issue 31; nothing
   *   stored, that business's owners are emailed)
   * @throws MindbodyFailedException 502 'Something went wrong' when Mindbody cannot be reached
   */
  async connect(scope: BusinessScope, input: MindbodyCredentialsDto): Promise<MindbodyStatus> {
    let issued: { token: string; expiresAt: Date };
    try {
      issued = await this.siteClient.issueStaffToken(input.siteId, input.username, input.password);
    } catch (error) {
      if (error instanceof MindbodyLoginRefusedError) {
        if (await this.notActivated(input.siteId)) throw new MindbodySiteNotActivatedException();
        throw new MindbodyInvalidCredentialsException();
      }
      this.logger.warn(`Mindbody credentials check failed: ${errorMessage(error)}`);
      throw new MindbodyFailedException();
    }
    const claimed = await this.integrations.saveCredentials(
      scope,
      {
        siteId: input.siteId,
        username: input.username,
        passwordEnc: this.crypto.seal(input.password),
        staffTokenEnc: this.crypto.seal(issued.token),
        staffTokenExpiresAt: issued.expiresAt,
      },
      (manager) =>
        this.audit.record(scope, manager, {
          kind: 'integration.connected',
          after: { integration: 'Mindbody', siteId: input.siteId },
        }),
    );
    if (claimed) {
      await this.tellSiteHolder(claimed.heldBy, input.siteId);
      throw new MindbodySiteClaimedException();
    }
    return this.status(scope);
  }

  /** Emails the owners of the business holding `siteId` that another account tried to connect it; a failure is logged only. */
  private async tellSiteHolder(businessId: string, siteId: string): Promise<void> {
    try {
      const at = new Date();
      for (const owner of await this.integrations.siteOwners(businessId))
        await this.mail.queue(
          siteClaimAttemptEmail(owner, siteId, at, this.config.mail.contactRecipient),
        );
    } catch (error) {
      this.logger.error(
        `telling business ${businessId} of a claim on its Mindbody site: ${errorMessage(error)}`,
      );
    }
  }

  /** True when Mindbody says the site has not activated Grove (false when it cannot tell). */
  private async notActivated(siteId: string): Promise<boolean> {
    if (!/^-?\d{1,10}$/.test(siteId)) return false;
    try {
      return !(await this.siteClient.siteActivation(siteId)).activated;
    } catch (error) {
      if (!(error instanceof MindbodyRequestError || error instanceof MindbodyAuthError))
        this.logger.warn(`Mindbody site activation check failed: ${errorMessage(error)}`);
      return false;
    }
  }

  /**
   * 'Import members' (docs/product.md#mindbody-stages stage 2): queues the import job unless one is running; the process
   * state becomes 'running' at once.
   * @returns the status (202)
   * @throws MindbodyWrongStageException 409 at stage 1
   */
  async startImport(scope: BusinessScope): Promise<MindbodyStatus> {
    await this.billing.assertOpen(scope);
    return this.start(scope, 'import', 2, 'connect Mindbody');
  }

  /**
   * 'Sync with mindbody' (docs/product.md#mindbody-setup stage 4), once the owner has confirmed its
   * preview (issue 25): `confirm` must be the `fingerprint` of {@link syncPreview} as it is now;
   * then the owner's sync is queued: the one kind of sync that writes Mindbody autopays (issue 31;
   * a sync a webhook queued holds its bill changes for this confirmation, `pendingBills`). It is
   * queued even while another sync runs (it runs after it, under the business's lock); the bills
   * held are no longer pending once it has completed.
   * @returns the status (202)
   * @throws MindbodyWrongStageException 409 below stage 4
   * @throws BillingPausedException 402 while Grove is paused for an unpaid bill (docs/product.md#billing)
   * @throws MindbodySyncConfirmRequiredException 400 without `confirm`
   * @throws MindbodySyncPreviewStaleException 409 when the bills to change are no longer those
   *   previewed (the wizard previews again)
   */
  async startSync(scope: BusinessScope, confirm: string | undefined): Promise<MindbodyStatus> {
    await this.billing.assertOpen(scope);
    const row = await this.integrations.find(scope);
    if (!row || row.stage < 4) throw new MindbodyWrongStageException(SYNC_NEEDS);
    if (!confirm) throw new MindbodySyncConfirmRequiredException();
    if (billChangesFingerprint(await this.syncChanges(scope, row)) !== confirm)
      throw new MindbodySyncPreviewStaleException();
    await this.integrations.startProcess(scope, 4);
    await this.processor.enqueue(scope.businessId, 'sync', true, undefined, jobActor(scope));
    return this.status(scope);
  }

  /**
   * The sync's preview (issue 25): which managed members' Mindbody autopays a sync would write,
   * from what Grove has stored (each member's autopay as last read or written, its counting
   * branches, the discounts: `plannedAutopays`, the rule the sync's writes follow); nothing is
   * written and Mindbody is not called (docs/decisions/mindbody-sync-preview.md says what it cannot
   * know: clients changed in Mindbody since the last sync; it counts the contracts not read yet,
   * `unreadContracts`, and the friends waiting for their Mindbody client, `waitingFriends`).
   * @param page 1-based page of the changes sorted by name; `pageSize` default 100
   * @returns one page of `{memberId, name, currentCents, newCents, differenceCents}`, the count,
   *   the monthly difference (cents) and the fingerprint `POST /api/mindbody/sync` confirms
   * @throws MindbodyWrongStageException 409 below stage 4
   */
  async syncPreview(
    scope: BusinessScope,
    page = 1,
    pageSize = BILL_CHANGES_PAGE_SIZE,
  ): Promise<MindbodyBillChanges> {
    const row = await this.integrations.find(scope);
    if (!row || row.stage < 4) throw new MindbodyWrongStageException(SYNC_NEEDS);
    return billChangesPage(
      await this.syncChanges(scope, row),
      page,
      pageSize,
      await this.members.countUnreadContracts(scope),
      await this.members.countWaitingFriends(scope),
    );
  }

  /** Every bill change of the business's next sync, from stored data (see {@link syncPreview}). */
  private async syncChanges(
    scope: BusinessScope,
    row: MindbodyIntegrationEntity,
  ): Promise<MindbodyBillChange[]> {
    return plannedBillChanges(
      plannedAutopays(
        await this.members.autopayTargets(scope),
        row.discountOnReferralCents ?? 0,
        row.discountForRefereeCents ?? 0,
      ),
    );
  }

  /**
   * What 'Remove integration' would do to bills (issue 25): every running managed member whose
   * Mindbody autopay Grove has overridden, from what Grove last wrote back to the member's own
   * amount (the restore {@link remove} does), from stored data; nothing is written and Mindbody is
   * not called. Empty at stage 1.
   * @param page 1-based page sorted by name; `pageSize` default 100
   */
  async removalPreview(
    scope: BusinessScope,
    page = 1,
    pageSize = BILL_CHANGES_PAGE_SIZE,
  ): Promise<MindbodyBillChanges> {
    const row = await this.integrations.find(scope);
    const overridden = row && row.stage > 1 ? await this.members.overriddenAutopays(scope) : [];
    return billChangesPage(
      overridden.map((member) => billChange(member, member.currentCents, member.ownAmountCents)),
      page,
      pageSize,
      0,
      0,
    );
  }

  private async start(
    scope: BusinessScope,
    kind: 'import',
    minStage: number,
    needed: string,
  ): Promise<MindbodyStatus> {
    const row = await this.integrations.find(scope);
    if (!row || row.stage < minStage) throw new MindbodyWrongStageException(needed);
    if (await this.integrations.startProcess(scope, minStage))
      await this.processor.enqueue(scope.businessId, kind, false, undefined, jobActor(scope));
    return this.status(scope);
  }

  /**
   * Saves the discounts, integer cents as the DTO checked them (docs/product.md#validation-mindbody:
   * on referral ≥ 1 cent, for referee ≥ 0, default 0):
   * stage 3 → 4, or a change at stage 4. On reaching stage 4 Grove makes sure its developer
   * account has its ONE webhook subscription, at `<PUBLIC_ORIGIN>/api/mindbody/webhooks`
   * (created by the first business, shared by every other: it receives every activated site's
   * events; a failed subscription is logged and tried again on the next save; 'Sync with
   * mindbody' works without it). A change is recorded in the audit log in the save's transaction
   * ('settings.changed', 'Mindbody discounts', the amounts that moved, before → after;
   * docs/product.md#audit-log).
   * @throws MindbodyWrongStageException 409 below stage 3
   */
  async saveDiscounts(scope: BusinessScope, input: MindbodyDiscountsDto): Promise<MindbodyStatus> {
    const onReferral = input.discountOnReferralCents;
    const forReferee = input.discountForRefereeCents ?? 0;
    const saved = await this.integrations.saveDiscounts(
      scope,
      onReferral,
      forReferee,
      async (manager, before) => {
        const entry = settingChange(
          'Mindbody discounts',
          { ...before },
          {
            discountOnReferralCents: onReferral,
            discountForRefereeCents: forReferee,
          },
        );
        if (entry) await this.audit.record(scope, manager, entry);
      },
    );
    if (!saved) {
      throw new MindbodyWrongStageException('import members');
    }
    const row = await this.integrations.find(scope);
    if (row && row.siteId && !row.webhookSubscriptionId) {
      const url = `${this.config.publicOrigin}${MINDBODY_WEBHOOK_PATH}`;
      try {
        await this.ensureAccountSubscription(url);
      } catch (error) {
        this.logger.warn(`Mindbody webhook subscription failed: ${errorMessage(error)}`);
      }
    }
    // The subscription is no part of the status: the row read above is still current.
    return toMindbodyStatus(row);
  }

  /**
   * Creates the developer account's webhook subscription (and activates it) unless Grove has one,
   * under the account subscription's lock (one subscription however many businesses subscribe at
   * once, on any API instance); its signature key is stored sealed. A subscription of this URL
   * that Grove holds no key for is deleted first (`MindbodySiteClient.subscribe`).
   * @throws the Mindbody client's errors (nothing stored)
   */
  private async ensureAccountSubscription(webhookUrl: string): Promise<void> {
    await this.integrations.withAccountSubscription(async (manager) => {
      if (await this.integrations.accountSubscription(manager)) return;
      // One Mindbody made whose key Grove never stored (a lost reply, a crash) is deleted first.
      const created = await this.siteClient.subscribe(
        webhookUrl,
        'grove',
        await this.integrations.heldSubscriptionIds(manager),
      );
      await this.integrations.saveAccountSubscription(manager, {
        subscriptionId: created.subscriptionId,
        signatureKeyEnc: this.crypto.seal(created.signatureKey),
        webhookUrl,
      });
    });
    this.webhookKeys.invalidate();
  }

  /**
   * 'Remove integration' (docs/product.md#states, any stage above 1): puts every Mindbody autopay
   * Grove overrode back to the member's own amount (reported in `removal`), clears credentials and
   * discounts, back to stage 1; the developer account's webhook subscription is deleted when no
   * other business needs it (and a subscription of this business's own, from before, always).
   * Imported members and prospects stay as ordinary rows (their managed mark is cleared).
   * @returns stage 1, with `removal`: autopays restored, members whose autopay could not be
   * @throws MindbodyFailedException 502 'Something went wrong' when the subscription cannot be deleted (nothing changes)
   */
  async remove(scope: BusinessScope): Promise<MindbodyStatus> {
    const row = await this.integrations.find(scope);
    if (!row || row.stage === 1) return STAGE_ONE;
    try {
      // A subscription this business made before Grove kept one for the account.
      if (row.webhookSubscriptionId) await this.siteClient.unsubscribe(row.webhookSubscriptionId);
      await this.integrations.withAccountSubscription(async (manager) => {
        const account = await this.integrations.accountSubscription(manager);
        // The account's subscription goes with the last business that needs it.
        if (
          account &&
          (await this.integrations.otherSubscribedIntegrations(scope, manager)) === 0
        ) {
          await this.siteClient.unsubscribe(account.subscriptionId);
          await this.integrations.deleteAccountSubscription(manager);
        }
      });
      this.webhookKeys.invalidate();
    } catch (error) {
      this.logger.warn(`Mindbody webhook unsubscribe failed: ${errorMessage(error)}`);
      throw new MindbodyFailedException();
    }
    // Under the business's lock: no import or sync writes a discount after this puts it back.
    const removal = await this.integrations.withBusinessLock(scope.businessId, async () => {
      const { bills, ...restored } = await this.restoreAutopays(scope, row);
      await this.integrations.reset(scope, (manager) =>
        this.audit.recordMany(scope, manager, [
          ...bills.map((bill) => billWrittenEntry('Mindbody', bill)),
          {
            kind: 'integration.disconnected',
            before: { integration: 'Mindbody', siteId: row.siteId },
            after: {
              autopaysRestored: restored.autopaysRestored,
              autopaysNotRestored: restored.autopaysNotRestored.length,
            },
          },
        ]),
      );
      return restored;
    });
    return { ...STAGE_ONE, removal };
  }

  /**
   * Puts every Mindbody autopay Grove has overridden back to the member's own amount (issue 22):
   * for each, its contract is read (`GET /client/clientcontracts`) and written with that amount
   * from its next autopay (`POST /client/updateclientcontractautopays`), 8 at a time.
   * @returns how many were put back, and the names of the members whose autopay could not be
   *   (Mindbody failing, a contract without an upcoming autopay, credentials that stopped working);
   *   `bills`: each bill written back (member, from → to, cents), for the audit log
   */
  private async restoreAutopays(
    scope: BusinessScope,
    integration: MindbodyIntegrationEntity,
  ): Promise<{
    autopaysRestored: number;
    autopaysNotRestored: string[];
    bills: { memberId: string; name: string; currentCents: number; newCents: number }[];
  }> {
    const overridden = await this.members.overriddenAutopays(scope);
    let restored = 0;
    const notRestored: string[] = [];
    const bills: { memberId: string; name: string; currentCents: number; newCents: number }[] = [];
    if (overridden.length === 0) return { autopaysRestored: 0, autopaysNotRestored: [], bills };
    const session = new MindbodySiteSession(
      integration,
      this.siteClient,
      this.crypto,
      this.integrations,
    );
    await mapLimit(overridden, 8, async (member) => {
      try {
        const contracts = await session.call((client) => client.autopayContracts(member.clientId));
        let done = contracts.length > 0;
        let wrote = false;
        for (const contract of contracts) {
          if (contract.amountCents === member.ownAmountCents) continue;
          const written = await session.call((client) =>
            client.updateAutopayAmount(contract, member.ownAmountCents),
          );
          wrote ||= written;
          done = written && done;
        }
        if (wrote)
          bills.push({
            memberId: member.memberId,
            name: member.name,
            currentCents: member.currentCents,
            newCents: member.ownAmountCents,
          });
        if (done) restored += 1;
        else notRestored.push(member.name);
      } catch (error) {
        this.logger.warn(
          `Mindbody autopay of ${member.clientId} not restored: ${errorMessage(error)}`,
        );
        notRestored.push(member.name);
      }
    });
    return { autopaysRestored: restored, autopaysNotRestored: notRestored.sort(), bills };
  }

  /**
   * A webhook delivery (Mindbody Webhooks API; docs/architecture.md#mindbody). The raw body must carry a valid
   * `X-Mindbody-Signature` (HMAC-SHA256 with the key of the developer account's subscription, or
   * of a business's own subscription from before), checked before anything else is done for it
   * (keys kept opened in memory, `MindbodyWebhookKeys`; issue 31 item 6); a delivery of the account's subscription goes
   * to every business whose integration is on its `eventData.siteId` (none: nothing to do, still
   * 204), one of a business's own to that business. Each `messageId` is processed once per business.
   * A sync queued here reads and stores, and writes no bill (issue 31: no bill changes
   * unconfirmed, ever): the autopay changes it would make are held for the owner
   * (`pendingBills` in the status; the owners are emailed once when changes are first held) until
   * the owner confirms them ({@link startSync}).
   * - client.created / client.updated / client.deactivated queue a sync (it reads the changed
   *   clients, inactive ones too);
   * - clientContract.updated / clientContract.cancelled (e.g. a membership suspended, resumed or
   *   ended) mark the client's contracts to be read again and queue a sync (it reads those
   *   contracts only);
   * - clientProfileMerger.created ends the member of the profile merged away (as a cancellation)
   *   and queues a sync, which updates the kept one;
   * - clientMembershipAssignment.cancelled marks the client's member cancelled (it stops counting
   *   as a branch) and queues a sync;
   * - clientSale.created with money paid stores the buyer's first payment when it is earlier than
   *   the one known (docs/product.md#branch-qualification) and then queues a sync, which starts a
   *   pending branch counting; any later sale (every autopay run sends one) changes nothing and
   *   queues nothing.
   * @returns whether the delivery was new to some business (false for a duplicate, or a site no
   *   business integrates)
   * @throws MindbodyWebhookSignatureException 401 for a missing or wrong signature, or a body that is not a delivery
   * @throws MindbodyWebhookInvalidException 400 when the site ID holds a control character
   */
  async receiveWebhook(
    rawBody: Buffer | undefined,
    signature: string | string[] | undefined,
  ): Promise<boolean> {
    if (!rawBody) throw new MindbodyWebhookSignatureException();
    // The signature first: nothing is parsed, read or decrypted for a delivery no key signed.
    let delivery: WebhookDelivery | null | undefined;
    const parsed = (): WebhookDelivery | null => {
      if (delivery !== undefined) return delivery;
      try {
        delivery = JSON.parse(rawBody.toString('utf8')) as WebhookDelivery;
      } catch {
        delivery = null;
      }
      return delivery;
    };
    const signer = await this.webhookKeys.signerOf(rawBody, signature, () => {
      const siteId = parsed()?.eventData?.siteId;
      return siteId === undefined || siteId === null ? null : String(siteId);
    });
    if (!signer) throw new MindbodyWebhookSignatureException();
    const verified = parsed();
    const siteId = verified?.eventData?.siteId;
    if (!verified || typeof verified.messageId !== 'string' || siteId === undefined)
      throw new MindbodyWebhookSignatureException();
    if (!isPlainText(String(siteId))) throw new MindbodyWebhookInvalidException();
    const candidates = await this.integrations.findSubscribedBySite(String(siteId));
    // The account's subscription: every business of the delivery's site; a business's own
    // (from before): that business, while it is still at stage 4 on the site.
    const targets =
      signer.kind === 'account'
        ? candidates
        : candidates.filter((candidate) => candidate.businessId === signer.businessId);
    let anyFresh = false;
    for (const target of targets)
      anyFresh = (await this.processDelivery(webhookScope(target), verified)) || anyFresh;
    return anyFresh;
  }

  /** One verified delivery for one business, once per messageId (see {@link receiveWebhook}). */
  private async processDelivery(scope: BusinessScope, delivery: WebhookDelivery): Promise<boolean> {
    let syncNeeded = true;
    const fresh = await this.integrations.oncePerMessage(
      scope,
      delivery.messageId,
      async (manager) => {
        if (
          delivery.eventId === 'clientMembershipAssignment.cancelled' ||
          delivery.eventId === 'clientProfileMerger.created'
        ) {
          // A merged-away profile is gone from Mindbody: its member ends as a cancelled one does
          // (the kept profile comes in with the sync: docs/decisions/mindbody-contract.md#profile-merge).
          const clientId =
            delivery.eventId === 'clientProfileMerger.created'
              ? String(delivery.eventData.removedClientId ?? '')
              : delivery.eventData.clientId;
          const { ended, member } = clientId
            ? await this.members.markCancelled(scope, manager, clientId)
            : { ended: null, member: null };
          if (member)
            await this.audit.record(scope, manager, {
              kind: 'member.updated',
              member,
              before: { membership: 'running' },
              after: { membership: 'ended' },
            });
          // The referrer pays again what the branch took off (docs/product.md#branch-qualification).
          if (ended) {
            await this.lifecycle.recordEffectivePrices(
              scope,
              [ended.referrerId],
              {
                reason: 'branch_removed',
                branchId: ended.branchId,
                cause: `branch_removed:${ended.branchId}:${delivery.messageId}`,
              },
              manager,
            );
            // Queued with the message's record, as the sync below (issue 31 item 4).
            await this.lapses.send(scope, [ended], manager);
          }
        } else if (
          delivery.eventId === 'clientContract.updated' ||
          delivery.eventId === 'clientContract.cancelled'
        ) {
          // A contract event: the next sync reads that client's contracts (and no one else's).
          await this.members.markContractsStale(
            scope,
            manager,
            String(delivery.eventData.clientId),
          );
        } else if (delivery.eventId === 'clientSale.created') {
          const payment = paymentOf(delivery.eventData);
          syncNeeded =
            payment !== null && (await this.members.setFirstPaid(scope, [payment], manager)) > 0;
        }
        // Queued with the message's record: a crash after the commit cannot lose the sync
        // (issue 31 item 4), and a failed queue leaves the message unrecorded for Mindbody's retry.
        if (syncNeeded)
          await this.processor.enqueue(scope.businessId, 'sync', false, manager, jobActor(scope));
      },
    );
    return fresh;
  }
}
