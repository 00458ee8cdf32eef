import { Injectable, Logger } from '@nestjs/common';
import {
  verifyWebhookSignature,
  type ClientSaleEventData,
  type WebhookDelivery,
} from '@grove/api-mindbody';
import { dollarsToCents, isPlainText, type MindbodyStatus } from '@grove/contracts';
import { AppConfig } from '../../platform/config/app-config';
import type { MindbodyCredentialsDto } from './http/dto/mindbody-credentials.dto';
import type { MindbodyDiscountsDto } from './http/dto/mindbody-discounts.dto';
import { MindbodyCrypto } from './persistence/mindbody-crypto';
import { MindbodyLoginRefusedError } from './client/mindbody-records';
import { MindbodySiteClient } from './client/mindbody-site-client';
import type { MindbodyIntegrationEntity } from './persistence/mindbody-integration.entity';
import {
  MindbodyMembersRepository,
  type EndedBranch,
  type FirstPayment,
} from './persistence/mindbody-members.repository';
import { BranchLapseNotices } from './pipeline/branch-lapse-notices';
import { MindbodyProcessor } from './jobs/mindbody-processor';
import {
  MindbodyFailedException,
  MindbodyInvalidCredentialsException,
  MindbodyInvalidDiscountsException,
  MindbodyWebhookInvalidException,
  MindbodyWebhookSignatureException,
  MindbodyWrongStageException,
} from './mindbody.exceptions';
import { MindbodyRepository } from './persistence/mindbody.repository';
import { errorMessage } from '../../platform/common/error-message';
import { LifecycleService } from '../../membership/lifecycle/lifecycle.service';
import { webhookScope, type BusinessScope } from '../../platform/database/business-scope';

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
  ) {}

  /** docs/product.md#entities, docs/product.md#states: stage, discounts (cents), process state, progress, last sync. Stage 1 without a row. */
  async status(scope: BusinessScope): Promise<MindbodyStatus> {
    return toMindbodyStatus(await this.integrations.find(scope));
  }

  /**
   * docs/product.md#mindbody-stages stage 1 → 2: checks the credentials by issuing a staff token, then stores them sealed.
   * @throws MindbodyInvalidCredentialsException 400 'Invalid credentials provided' (nothing stored, stage unchanged)
   * @throws MindbodyFailedException 502 'Something went wrong' when Mindbody cannot be reached
   */
  async connect(scope: BusinessScope, input: MindbodyCredentialsDto): Promise<MindbodyStatus> {
    let issued: { token: string; expiresAt: Date };
    try {
      issued = await this.siteClient.issueStaffToken(input.siteId, input.username, input.password);
    } catch (error) {
      if (error instanceof MindbodyLoginRefusedError)
        throw new MindbodyInvalidCredentialsException();
      this.logger.warn(`Mindbody credentials check failed: ${errorMessage(error)}`);
      throw new MindbodyFailedException();
    }
    await this.integrations.saveCredentials(scope, {
      siteId: input.siteId,
      username: input.username,
      passwordEnc: this.crypto.seal(input.password),
      staffTokenEnc: this.crypto.seal(issued.token),
      staffTokenExpiresAt: issued.expiresAt,
    });
    return this.status(scope);
  }

  /**
   * 'Import members' (docs/product.md#mindbody-stages stage 2): queues the import job unless one is running; the process
   * state becomes 'running' at once.
   * @returns the status (202)
   * @throws MindbodyWrongStageException 409 at stage 1
   */
  async startImport(scope: BusinessScope): Promise<MindbodyStatus> {
    return this.start(scope, 'import', 2, 'connect Mindbody');
  }

  /**
   * 'Sync with mindbody' (docs/product.md#mindbody-setup stage 4): queues a sync job unless one is running.
   * @returns the status (202)
   * @throws MindbodyWrongStageException 409 below stage 4
   */
  async startSync(scope: BusinessScope): Promise<MindbodyStatus> {
    return this.start(scope, 'sync', 4, 'import members and save discounts');
  }

  private async start(
    scope: BusinessScope,
    kind: 'import' | 'sync',
    minStage: number,
    needed: string,
  ): Promise<MindbodyStatus> {
    const row = await this.integrations.find(scope);
    if (!row || row.stage < minStage) throw new MindbodyWrongStageException(needed);
    if (await this.integrations.startProcess(scope, minStage))
      await this.processor.enqueue(scope.businessId, kind);
    return this.status(scope);
  }

  /**
   * Saves the discounts (docs/product.md#validation-mindbody: on referral ≥ 0.01, for referee ≥ 0 default 0; cents stored):
   * stage 3 → 4, or a change at stage 4. On reaching stage 4 Grove subscribes to Mindbody's
   * webhooks at `<PUBLIC_ORIGIN>/api/mindbody/webhooks` (a failed subscription
   * is logged and tried again on the next save; 'Sync with mindbody' works without it).
   * @throws MindbodyInvalidDiscountsException 400 'Please provide valid values.'
   * @throws MindbodyWrongStageException 409 below stage 3
   */
  async saveDiscounts(scope: BusinessScope, input: MindbodyDiscountsDto): Promise<MindbodyStatus> {
    const onReferral = dollarsToCents(input.discountOnReferral);
    const forReferee =
      input.discountForReferee === undefined ? 0 : dollarsToCents(input.discountForReferee);
    if (onReferral === null || onReferral < 1 || forReferee === null)
      throw new MindbodyInvalidDiscountsException();
    if (!(await this.integrations.saveDiscounts(scope, onReferral, forReferee))) {
      throw new MindbodyWrongStageException('import members');
    }
    const row = await this.integrations.find(scope);
    if (row && row.siteId && !row.webhookSubscriptionId) {
      const url = `${this.config.publicOrigin}${MINDBODY_WEBHOOK_PATH}`;
      try {
        const subscription = await this.siteClient.subscribe(row.siteId, url, scope.businessId);
        await this.integrations.saveSubscription(
          scope,
          subscription.subscriptionId,
          this.crypto.seal(subscription.signatureKey),
        );
      } catch (error) {
        this.logger.warn(`Mindbody webhook subscription failed: ${errorMessage(error)}`);
      }
    }
    // The subscription is no part of the status: the row read above is still current.
    return toMindbodyStatus(row);
  }

  /**
   * 'Remove integration' (docs/product.md#states, any stage above 1): deletes the webhook subscription, clears
   * credentials and discounts, back to stage 1. Imported members and prospects stay as ordinary
   * rows (their managed mark is cleared).
   * @throws MindbodyFailedException 502 'Something went wrong' when the subscription cannot be deleted (nothing changes)
   */
  async remove(scope: BusinessScope): Promise<MindbodyStatus> {
    const row = await this.integrations.find(scope);
    if (!row || row.stage === 1) return STAGE_ONE;
    if (row.webhookSubscriptionId && row.siteId) {
      try {
        await this.siteClient.unsubscribe(row.siteId, row.webhookSubscriptionId);
      } catch (error) {
        this.logger.warn(`Mindbody webhook unsubscribe failed: ${errorMessage(error)}`);
        throw new MindbodyFailedException();
      }
    }
    await this.integrations.reset(scope);
    return STAGE_ONE;
  }

  /**
   * A webhook delivery (Mindbody Webhooks API; docs/architecture.md#mindbody). The raw body must carry a valid
   * `X-Mindbody-Signature` (HMAC-SHA256 with the key of a subscription Grove holds for the
   * delivery's site): that subscription names the business. Each `messageId` is processed once:
   * - client.created / client.updated / clientContract.updated (e.g. a membership suspended or
   *   resumed) queue a sync;
   * - clientMembershipAssignment.cancelled marks the client's member cancelled (it stops counting
   *   as a branch) and queues a sync;
   * - clientSale.created with money paid stores the buyer's first payment when it is earlier than
   *   the one known (docs/product.md#branch-qualification) and then queues a sync, which starts a
   *   pending branch counting; any later sale (every autopay run sends one) changes nothing and
   *   queues nothing.
   * @returns whether the delivery was new (false for a duplicate)
   * @throws MindbodyWebhookSignatureException 401 for a missing or wrong signature, or a body that is not a delivery
   * @throws MindbodyWebhookInvalidException 400 when the site ID holds a control character
   */
  async receiveWebhook(
    rawBody: Buffer | undefined,
    signature: string | string[] | undefined,
  ): Promise<boolean> {
    if (!rawBody) throw new MindbodyWebhookSignatureException();
    let delivery: WebhookDelivery;
    try {
      delivery = JSON.parse(rawBody.toString('utf8')) as WebhookDelivery;
    } catch {
      throw new MindbodyWebhookSignatureException();
    }
    const siteId = delivery?.eventData?.siteId;
    if (typeof delivery?.messageId !== 'string' || siteId === undefined)
      throw new MindbodyWebhookSignatureException();
    if (!isPlainText(String(siteId))) throw new MindbodyWebhookInvalidException();
    const candidates = await this.integrations.findSubscribedBySite(String(siteId));
    const match = candidates.find((candidate) => {
      try {
        return verifyWebhookSignature(
          rawBody,
          signature,
          this.crypto.open(candidate.signatureKeyEnc),
        );
      } catch {
        return false;
      }
    });
    if (!match) throw new MindbodyWebhookSignatureException();
    const scope = webhookScope(match);
    let ended: EndedBranch | null = null;
    let syncNeeded = true;
    const fresh = await this.integrations.oncePerMessage(
      scope,
      delivery.messageId,
      async (manager) => {
        if (delivery.eventId === 'clientMembershipAssignment.cancelled') {
          ended = await this.members.markCancelled(scope, manager, delivery.eventData.clientId);
          // The referrer pays again what the branch took off (docs/product.md#branch-qualification).
          if (ended)
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
        } else if (delivery.eventId === 'clientSale.created') {
          const payment = paymentOf(delivery.eventData);
          syncNeeded =
            payment !== null && (await this.members.setFirstPaid(scope, [payment], manager)) > 0;
        }
      },
    );
    if (fresh && ended) await this.lapses.send(scope, [ended]);
    if (fresh && syncNeeded) await this.processor.enqueue(match.businessId, 'sync');
    return fresh;
  }
}
