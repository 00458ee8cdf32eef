import { randomBytes } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { AppConfig } from '../../platform/config/app-config';
import { errorMessage } from '../../platform/common/error-message';
import { MailService } from '../../platform/mail/mail.service';
import { stripeAccountClaimAttemptEmail } from './account-claim-email';
import { BranchQualificationService } from '../../membership/branch-qualification/branch-qualification.service';
import { AuditLog, settingChange } from '../../platform/audit/audit-log';
import type { BusinessScope } from '../../platform/database/business-scope';
import { MembershipEvents } from '../../membership/events/membership-events';
import { targetAutopayCents } from '../../membership/pricing/price';
import { MindbodyCrypto } from '../mindbody/persistence/mindbody-crypto';
import {
  BILL_CHANGES_PAGE_SIZE,
  billChangesFingerprint,
  billChangesPage,
  billWrittenEntry,
} from '../mindbody/pipeline/bill-changes';
import { pendingBillsEmail } from '../mindbody/pending-bills-email';
import { GymStripeClient, type UpcomingCharge } from './client/gym-stripe.client';
import { MemberNextCharges } from '../../member/member-page/member-next-charges';
import { MemberPageChargeCache } from './member-page-charge-cache';
import { STRIPE_HELD_BILLS } from './held-bills';
import type {
  StripeBillChangeDto,
  StripeBillChangesDto,
  StripeMembersRunDto,
  StripeNextChargeDto,
  StripeMembersRemovalDto,
  StripeMembersStatusDto,
} from './http/dto/stripe-members-replies.dto';
import { StripeImportReferrers } from './jobs/stripe-import-referrers';
import {
  StripeMemberRunsRepository,
  type StripeRun,
} from './persistence/stripe-member-runs.repository';
import {
  StripeMembersRepository,
  type StripeBillTarget,
  type StripeMemberIntegration,
} from './persistence/stripe-members.repository';
import {
  StripeAccountClaimedException,
  StripeDiscountsFirstException,
  StripeNoSubscriptionException,
  StripeNotConnectedException,
  StripeSyncConfirmRequiredException,
  StripeSyncPreviewStaleException,
} from './stripe-members.exceptions';

/** What one import did: active subscriptions listed, members added or repriced, subscriptions ended. */
export interface StripeImportCounts {
  listed: number;
  membersWritten: number;
  ended: number;
}

/** A bill change with what the sync writes for it: Grove's discount on that subscription, cents. */
type PlannedBill = StripeBillChangeDto & { target: StripeBillTarget; groveCents: number };

/**
 * A gym's Stripe account as its member billing (issue 32, docs/stripe.md#member-billing): the
 * wizard's connect, discounts, import, preview, confirmed sync and removal, mirroring Mindbody's.
 * The price rule is Mindbody's (`targetAutopayCents`, docs/product.md#constants): a member's
 * bill is their subscription's price less discountOnReferral × counting branches (less
 * discountForReferee when a branch), never below 0, written as ONE `amount_off`,
 * `duration: forever` coupon in the subscription's currency in its `discounts` (the gym's own
 * discounts kept).
 */
@Injectable()
export class StripeMembersService implements OnModuleInit {
  private readonly logger = new Logger(StripeMembersService.name);
  /** The member page's upcoming charges, per member (issue 36: one Stripe call per 10 minutes). */
  private readonly pageCharges = new MemberPageChargeCache();

  constructor(
    private readonly repository: StripeMembersRepository,
    private readonly runs: StripeMemberRunsRepository,
    private readonly stripe: GymStripeClient,
    private readonly crypto: MindbodyCrypto,
    private readonly events: MembershipEvents,
    private readonly branches: BranchQualificationService,
    private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly audit: AuditLog,
    private readonly memberPageCharges: MemberNextCharges,
    private readonly referrers: StripeImportReferrers,
  ) {}

  /** Gives the member page its "Stripe will charge $X on <date>" (`memberPageCharge`). */
  onModuleInit(): void {
    this.memberPageCharges.register((scope, memberId, timeoutMs) =>
      this.memberPageCharge(scope, memberId, timeoutMs),
    );
  }

  /** The connection and its last runs (never the key). */
  async status(scope: BusinessScope): Promise<StripeMembersStatusDto> {
    const integration = await this.repository.integration(scope);
    const counts = integration
      ? await this.repository.counts(scope)
      : { subscriptions: 0, discounted: 0 };
    return {
      connected: integration !== null,
      keyLast4: integration?.keyLast4 ?? null,
      livemode: integration?.livemode ?? false,
      discountOnReferralCents: integration?.discountOnReferralCents ?? null,
      discountForRefereeCents: integration?.discountForRefereeCents ?? 0,
      subscriptions: counts.subscriptions,
      discountedSubscriptions: counts.discounted,
      importedAt: integration?.importedAt?.toISOString() ?? null,
      lastSyncAt: integration?.lastSyncAt?.toISOString() ?? null,
      lastSyncBillsWritten: integration?.lastSyncBillsWritten ?? null,
      webhookUrl: integration?.webhookToken
        ? `${this.config.publicOrigin}/api/stripe-members/webhooks/${integration.webhookToken}`
        : null,
      webhookConfigured: integration?.webhookSecretSealed != null,
      automaticSync: integration?.automaticSync ?? false,
      pendingBillsSince: integration?.pendingBillsSince?.toISOString() ?? null,
      run: integration ? toRunDto(await this.runs.find(scope)) : null,
    };
  }

  /**
   * Connects the gym's account: the key must list the active subscriptions with their customers
   * (one Stripe call: Subscriptions and Customers read), and no subscription on that first page
   * may belong to another business (then its people are emailed, `stripeAccountClaimAttemptEmail`);
   * then it is stored sealed (AES-256-GCM, Mindbody's
   * `MindbodyCrypto`). Nothing is stored on a refusal.
   * @throws StripeKeyRefusedException 400 (Stripe's 401), StripeKeyMissingPermissionsException 400
   *   (Stripe's 403), StripeAccountClaimedException 409, StripeAccountUnavailableException 502
   */
  async connect(scope: BusinessScope, rawKey: string): Promise<StripeMembersStatusDto> {
    const apiKey = rawKey.trim();
    const probe = await this.stripe.activeSubscriptions(apiKey);
    const heldBy = await this.repository.saveKey(
      scope,
      {
        sealed: this.crypto.seal(apiKey),
        last4: apiKey.slice(-4),
        livemode: apiKey.startsWith('rk_live_'),
        webhookToken: randomBytes(24).toString('base64url'),
      },
      probe.items.map((item) => item.subscriptionId),
      (manager) =>
        this.audit.record(scope, manager, {
          kind: 'integration.connected',
          after: { integration: 'Stripe', key: `…${apiKey.slice(-4)}` },
        }),
    );
    if (heldBy) {
      await this.tellAccountHolder(heldBy);
      throw new StripeAccountClaimedException();
    }
    return this.status(scope);
  }

  /** Emails the people of the business holding the Stripe account of a refused claim; a failure is logged only. */
  private async tellAccountHolder(businessId: string): Promise<void> {
    try {
      const at = new Date();
      for (const owner of await this.repository.holderOwners(businessId))
        await this.mail.queue(
          stripeAccountClaimAttemptEmail(owner, at, this.config.mail.contactRecipient),
        );
    } catch (error) {
      this.logger.error(
        `telling business ${businessId} of a claim on its Stripe account: ${errorMessage(error)}`,
      );
    }
  }

  /**
   * Saves the signing secret (`whsec_…`) of the webhook endpoint the owner added in their Stripe
   * Dashboard for `webhookUrl`, sealed like the key (docs/decisions/stripe-member-webhooks.md).
   * @throws StripeNotConnectedException 409
   */
  async saveWebhook(scope: BusinessScope, rawSecret: string): Promise<StripeMembersStatusDto> {
    if (!(await this.repository.saveWebhook(scope, this.crypto.seal(rawSecret.trim()))))
      throw new StripeNotConnectedException();
    return this.status(scope);
  }

  /**
   * Saves the referral discounts (cents). New amounts turn automatic sync off: the owner confirms
   * bills under them first. A change is recorded in the audit log in the save's transaction
   * ('settings.changed', 'Stripe discounts', before → after; docs/product.md#audit-log).
   * @throws StripeNotConnectedException 409
   */
  async saveDiscounts(
    scope: BusinessScope,
    onReferralCents: number,
    forRefereeCents: number,
  ): Promise<StripeMembersStatusDto> {
    const saved = await this.repository.saveDiscounts(
      scope,
      onReferralCents,
      forRefereeCents,
      async (manager, before) => {
        const entry = settingChange(
          'Stripe discounts',
          { ...before },
          {
            discountOnReferralCents: onReferralCents,
            discountForRefereeCents: forRefereeCents,
          },
        );
        if (entry) await this.audit.record(scope, manager, entry);
      },
    );
    if (!saved) throw new StripeNotConnectedException();
    return this.status(scope);
  }

  /**
   * Imports the gym's customers with active subscriptions as members, page by page (100 a Stripe
   * call, the next fetched while one is written, each page ONE statement:
   * `StripeMembersRepository.importPage`), then ends the imported
   * subscriptions Stripe no longer lists as active. A member it adds whose customer names a
   * referrer (`metadata.referred_by`) becomes that member's branch or waits in Referrals to match
   * (`StripeImportReferrers`). Idempotent: run again, it converges. It runs
   * in the `stripe-members.run` job (`StripeMemberRunsService`).
   * @param progress told the subscriptions listed so far after each page is written
   * @param stopping aborted when the API shuts down: the import stops before its next page (the
   *   job's retry imports again, converging)
   * @throws StripeNotConnectedException 409, the client's exceptions (400 key, 502 Stripe), the
   *   signal's reason when stopped
   */
  async import(
    scope: BusinessScope,
    progress: (listed: number) => Promise<void> = async () => undefined,
    stopping?: AbortSignal,
  ): Promise<StripeImportCounts> {
    const apiKey = await this.key(scope);
    const since = await this.repository.now();
    const listed: string[] = [];
    let membersWritten = 0;
    // The next page is fetched while this one is written (Stripe's cursor is the last id).
    let pending = this.stripe.activeSubscriptions(apiKey);
    for (;;) {
      const page = await pending;
      const next =
        page.hasMore && page.lastId ? this.stripe.activeSubscriptions(apiKey, page.lastId) : null;
      // A failed write must not leave the prefetch's refusal unhandled.
      next?.catch(() => undefined);
      stopping?.throwIfAborted();
      const result = await this.repository.importPage(scope, page.items);
      membersWritten += result.membersWritten;
      await this.referrers.resolve(scope, page.items, result.added);
      listed.push(...page.items.map((item) => item.subscriptionId));
      await progress(listed.length);
      if (!next) break;
      pending = next;
    }
    const ended = await this.repository.finishImport(scope, listed, (manager, endedNow) =>
      this.audit.record(scope, manager, {
        kind: 'import.run',
        after: { source: 'Stripe', listed: listed.length, membersWritten, ended: endedNow },
      }),
    );
    await this.events.emit('members.bulk-added', { scope, since });
    // An ended subscription lapses its branch; a first payment known starts one.
    await this.branches.refresh(scope);
    return { listed: listed.length, membersWritten, ended };
  }

  /**
   * The sync's preview (issue 25's rule): the bills that change, from stored data (no Stripe
   * call), 100 a page by name, with the count, the total difference and the fingerprint the sync
   * confirms. @throws StripeNotConnectedException 409, StripeDiscountsFirstException 409
   */
  async syncPreview(
    scope: BusinessScope,
    page = 1,
    pageSize = BILL_CHANGES_PAGE_SIZE,
  ): Promise<StripeBillChangesDto> {
    const changes = await this.plannedBills(scope, await this.integration(scope));
    const result = billChangesPage(changes, page, pageSize, 0, 0);
    return {
      items: (result.items as PlannedBill[]).map(
        ({ target: _target, groveCents: _cents, ...item }) => item,
      ),
      total: result.total,
      page: result.page,
      pageSize: result.pageSize,
      monthlyDifferenceCents: result.monthlyDifferenceCents,
      fingerprint: result.fingerprint,
    };
  }

  /**
   * Checks the owner's confirmation of a sync (issue 25's rule): `confirm` must be the
   * `fingerprint` of the preview as it is now. @returns the confirmed bills (member id → new
   * cents, what the sync's job may write and nothing else) and the fingerprint
   * @throws StripeNotConnectedException 409, StripeDiscountsFirstException 409,
   *   StripeSyncConfirmRequiredException 400, StripeSyncPreviewStaleException 409
   */
  async confirmSync(
    scope: BusinessScope,
    confirm: string | undefined,
  ): Promise<{ confirmed: Record<string, number>; fingerprint: string }> {
    const changes = await this.plannedBills(scope, await this.integration(scope));
    if (!confirm) throw new StripeSyncConfirmRequiredException();
    const fingerprint = billChangesFingerprint(changes);
    if (fingerprint !== confirm) throw new StripeSyncPreviewStaleException();
    return {
      confirmed: Object.fromEntries(changes.map((change) => [change.memberId, change.newCents])),
      fingerprint,
    };
  }

  /**
   * The confirmed sync (in the `stripe-members.run` job): of the bills that change now, those the
   * owner confirmed (`confirmed`, same member and new amount) are written, and nothing else; a
   * retried job finds the ones already written unchanged and writes the rest. For each: Grove's
   * coupon of the discount in the subscription's currency (made once per amount and currency,
   * idempotency key `grove-coupon-<business>-<currency>-<cents>`), set beside the gym's own
   * discounts (`grove-discounts-<subscription>-<cents>-<fingerprint>`), or Grove's discount taken
   * off when it falls to 0. Each write is recorded as it succeeds. `automatic` (the owner's choice
   * at confirmation) lets later bills that the gym's webhooks change be written without a new
   * review, under these discounts. Decided and written under the business's bills lock
   * (`withBillsLock`): a webhook's bills or a removal of the same business wait for it.
   * @param progress told the bills written so far and the bills to write
   * @returns the bills written
   * @throws StripeNotConnectedException 409, StripeDiscountsFirstException 409, the client's,
   *   the signal's reason when stopped (before the next bill)
   */
  async runSync(
    scope: BusinessScope,
    run: { confirmed: Record<string, number>; fingerprint: string; automatic: boolean },
    progress: (written: number, total: number) => Promise<void> = async () => undefined,
    stopping?: AbortSignal,
  ): Promise<number> {
    return this.repository.withBillsLock(
      scope,
      async () => {
        const integration = await this.integration(scope);
        const changes = (await this.plannedBills(scope, integration)).filter(
          (change) => run.confirmed[change.memberId] === change.newCents,
        );
        await progress(0, changes.length);
        const written = await this.writeBills(
          scope,
          integration,
          changes,
          run.fingerprint,
          (count) => progress(count, changes.length),
          stopping,
        );
        await this.repository.recordSync(scope, written, run.automatic);
        return written;
      },
      stopping,
    );
  }

  /**
   * After a webhook of the gym's account changed a branch (docs/decisions/stripe-member-webhooks.md):
   * the bills that now change are written only when the owner, confirming a sync, turned automatic
   * sync on and the discounts have not changed since (`automaticSync`); otherwise they are held
   * (`pendingBillsSince`) for the owner's review in the wizard's preview, the owners emailed once per
   * batch. Nothing to change: nothing is written, and nothing held any more. Decided and written
   * under the business's bills lock (`withBillsLock`), so a running confirmed sync finishes first
   * and this then finds the bills it wrote unchanged (docs/decisions/stripe-bills-one-at-a-time.md).
   * @returns the bills written (0 when held or none)
   */
  async applyAccountChanges(scope: BusinessScope): Promise<{ held: number; written: number }> {
    return this.repository.withBillsLock(scope, () => this.applyAccountChangesLocked(scope));
  }

  /** `applyAccountChanges` under the business's bills lock. */
  private async applyAccountChangesLocked(
    scope: BusinessScope,
  ): Promise<{ held: number; written: number }> {
    const integration = await this.repository.integration(scope);
    if (!integration || integration.discountOnReferralCents === null)
      return { held: 0, written: 0 };
    const changes = await this.plannedBills(scope, integration);
    if (changes.length === 0) {
      await this.repository.clearHeldBills(scope);
      return { held: 0, written: 0 };
    }
    if (!integration.automaticSync) {
      await this.holdBills(scope, changes.length);
      return { held: changes.length, written: 0 };
    }
    const written = await this.writeBills(
      scope,
      integration,
      changes,
      billChangesFingerprint(changes),
    );
    await this.repository.recordSync(scope, written);
    return { held: 0, written };
  }

  /**
   * Holds `count` bill changes for the owner's review; when none were held before, each owner of
   * the business is emailed 'N bills would change in Stripe: review' (Mindbody's
   * `pendingBillsEmail`), queued in the transaction that holds them: once per batch, however many
   * events arrive before the owner reviews it.
   */
  private async holdBills(scope: BusinessScope, count: number): Promise<void> {
    const owners = await this.repository.holderOwners(scope.businessId);
    const emailed = await this.repository.holdBills(scope, async (manager) => {
      for (const owner of owners)
        await this.mail.queue(
          pendingBillsEmail(owner, count, this.config.publicOrigin, STRIPE_HELD_BILLS),
          undefined,
          manager,
        );
    });
    if (emailed) this.mail.wake();
  }

  /**
   * Writes planned bills, each recorded as it succeeds (see `sync`). @returns the bills written
   * @throws the client's exceptions (the bills written before stay recorded)
   */
  private async writeBills(
    scope: BusinessScope,
    integration: StripeMemberIntegration,
    changes: readonly PlannedBill[],
    fingerprint: string,
    onWritten: (written: number) => Promise<void> = async () => undefined,
    stopping?: AbortSignal,
  ): Promise<number> {
    const apiKey = this.crypto.open(integration.apiKeySealed);
    let written = 0;
    for (const change of changes) {
      stopping?.throwIfAborted();
      const { target, groveCents } = change;
      let couponId: string | null = null;
      if (groveCents > 0) {
        couponId = await this.repository.coupon(scope, target.currency, groveCents);
        if (!couponId) {
          couponId = await this.stripe.createCoupon(
            apiKey,
            groveCents,
            target.currency,
            `grove-coupon-${scope.businessId}-${target.currency}-${groveCents}`,
          );
          await this.repository.saveCoupon(scope, target.currency, groveCents, couponId);
        }
      }
      const discountId = await this.stripe.setDiscounts(
        apiKey,
        target.subscriptionId,
        target.otherDiscountIds,
        couponId,
        `grove-discounts-${target.subscriptionId}-${groveCents}-${fingerprint}`,
      );
      await this.repository.setGroveDiscount(
        scope,
        target.subscriptionId,
        groveCents,
        couponId,
        discountId,
        (manager) => this.audit.record(scope, manager, billWrittenEntry('Stripe', change)),
      );
      written += 1;
      // Progress every 20 bills (and the last), not a statement per bill.
      if (written % 20 === 0 || written === changes.length) await onWritten(written);
    }
    return written;
  }

  /**
   * Disconnects: every discount Grove added is taken off its subscription (the gym's own kept;
   * subscriptions that ended are left, Stripe bills them no more), then the key, the imported
   * subscriptions and the coupons are forgotten; members stay. A Stripe failure part-way answers
   * 502 and keeps the connection, the discounts already removed recorded (run it again). Under
   * the business's bills lock: a sync or a webhook's bills being written finish first.
   * @returns the discounts removed
   */
  async remove(scope: BusinessScope): Promise<StripeMembersRemovalDto> {
    const removed = await this.repository.withBillsLock(scope, () => this.removeDiscounts(scope));
    return { discountsRemoved: removed, status: await this.status(scope) };
  }

  /** `remove` under the business's bills lock. @returns the discounts removed */
  private async removeDiscounts(scope: BusinessScope): Promise<number> {
    const integration = await this.repository.integration(scope);
    let removed = 0;
    if (integration) {
      const apiKey = this.crypto.open(integration.apiKeySealed);
      for (const subscription of await this.repository.discounted(scope)) {
        if (subscription.endedAt === null) {
          await this.stripe.setDiscounts(
            apiKey,
            subscription.subscriptionId,
            subscription.otherDiscountIds,
            null,
            `grove-remove-${subscription.subscriptionId}-${integration.lastSyncAt?.getTime() ?? 0}`,
          );
          removed += 1;
        }
        const bill = {
          memberId: subscription.memberId,
          name: subscription.name,
          currentCents: subscription.priceCents - subscription.groveDiscountCents,
          newCents: subscription.priceCents,
        };
        await this.repository.setGroveDiscount(
          scope,
          subscription.subscriptionId,
          0,
          null,
          null,
          subscription.endedAt === null
            ? (manager) => this.audit.record(scope, manager, billWrittenEntry('Stripe', bill))
            : undefined,
        );
      }
      await this.runs.forget(scope);
      await this.repository.remove(scope, (manager) =>
        this.audit.record(scope, manager, {
          kind: 'integration.disconnected',
          before: { integration: 'Stripe', key: `…${integration.keyLast4}` },
          after: { discountsRemoved: removed },
        }),
      );
      this.logger.log(`Stripe member billing removed: ${removed} discounts taken off`);
    }
    return removed;
  }

  /**
   * What Stripe will charge a member next, from the subscription's upcoming invoice
   * (`POST /v1/invoices/create_preview`; nothing is written): "Stripe will charge $X on <date>".
   * @throws StripeNotConnectedException 409, StripeNoSubscriptionException 404 (not the business's
   *   member, no running subscription, or Stripe has no upcoming invoice), the client's
   */
  async nextCharge(scope: BusinessScope, memberId: string): Promise<StripeNextChargeDto> {
    const apiKey = await this.key(scope);
    const subscriptionId = isUUID(memberId)
      ? await this.repository.subscriptionOf(scope, memberId)
      : null;
    if (!subscriptionId) throw new StripeNoSubscriptionException();
    const charge = await this.stripe.upcomingCharge(apiKey, subscriptionId);
    if (!charge) throw new StripeNoSubscriptionException();
    return {
      amountCents: charge.amountCents,
      currency: charge.currency,
      at: charge.at.toISOString(),
    };
  }

  /**
   * The member page's "Stripe will charge $X on <date>" (registered in `MemberNextCharges`): the
   * same upcoming invoice as `nextCharge`, asked once within `timeoutMs` (no retry) and kept per
   * member for `MEMBER_PAGE_CHARGE_TTL_MS` (10 minutes) or until Grove writes that member's
   * subscription row (`MemberPageChargeCache`), so reloading the page asks Stripe once. Null when the
   * business has no Stripe connected, the member no running subscription, or Stripe no upcoming
   * invoice. @throws the client's exceptions (the page then shows no line)
   */
  async memberPageCharge(
    scope: BusinessScope,
    memberId: string,
    timeoutMs: number,
  ): Promise<UpcomingCharge | null> {
    const integration = await this.repository.integration(scope);
    const subscription = integration
      ? await this.repository.subscriptionVersionOf(scope, memberId)
      : null;
    if (!integration || !subscription) return null;
    return this.pageCharges.get(`${scope.businessId}:${memberId}`, subscription.version, () =>
      this.stripe.upcomingCharge(
        this.crypto.open(integration.apiKeySealed),
        subscription.subscriptionId,
        timeoutMs,
      ),
    );
  }

  /** @throws StripeNotConnectedException 409 when the business has connected no Stripe account */
  async assertConnected(scope: BusinessScope): Promise<void> {
    await this.integration(scope);
  }

  /** The business's integration. @throws StripeNotConnectedException 409 */
  private async integration(scope: BusinessScope): Promise<StripeMemberIntegration> {
    const integration = await this.repository.integration(scope);
    if (!integration) throw new StripeNotConnectedException();
    return integration;
  }

  /** The business's key, opened. @throws StripeNotConnectedException 409 */
  private async key(scope: BusinessScope): Promise<string> {
    return this.crypto.open((await this.integration(scope)).apiKeySealed);
  }

  /**
   * The bills a sync writes: every running imported subscription whose discounted price
   * (`targetAutopayCents`, never below 0) differs from what it bills now (price − Grove's
   * discount). @throws StripeDiscountsFirstException 409 before the discounts are saved
   */
  private async plannedBills(
    scope: BusinessScope,
    integration: StripeMemberIntegration,
  ): Promise<PlannedBill[]> {
    const onReferral = integration.discountOnReferralCents;
    if (onReferral === null) throw new StripeDiscountsFirstException();
    const planned: PlannedBill[] = [];
    for (const target of await this.repository.billTargets(scope)) {
      const newCents = targetAutopayCents(target, onReferral, integration.discountForRefereeCents);
      const currentCents = target.membershipPriceCents - target.groveDiscountCents;
      if (newCents === currentCents) continue;
      planned.push({
        memberId: target.memberId,
        name: target.name,
        currency: target.currency,
        currentCents,
        newCents,
        differenceCents: newCents - currentCents,
        target,
        groveCents: target.membershipPriceCents - newCents,
      });
    }
    return planned;
  }
}

/** A business's latest Stripe run as the wizard polls it (`StripeMembersStatus.run`). */
function toRunDto(run: StripeRun | null): StripeMembersRunDto | null {
  if (!run) return null;
  return {
    kind: run.kind,
    state: run.state,
    done: run.done,
    total: run.total,
    listed: run.result?.listed ?? null,
    membersWritten: run.result?.membersWritten ?? null,
    ended: run.result?.ended ?? null,
    billsWritten: run.result?.billsWritten ?? null,
    error: run.error,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}
