import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { MindbodyMembersRepository } from './mindbody-members.repository';
import type { BusinessScope } from '../../../platform/database/business-scope';
import { runTransaction } from '../../../platform/database/transaction';
import { withAdvisoryLock } from '../../../platform/database/business-lock';
import { MindbodyIntegrationEntity } from './mindbody-integration.entity';
import { accountHolderOwners } from '../../account-holder/account-holder.repository';
import type { SiteHolderOwner } from '../site-claim-email';

/** Sealed credentials and the staff token they produced. */
export interface SealedCredentials {
  siteId: string;
  username: string;
  passwordEnc: string;
  staffTokenEnc: string;
  staffTokenExpiresAt: Date;
}

/** Grove's one webhook subscription (of the developer account), as stored. */
export interface AccountSubscription {
  subscriptionId: string;
  /** The messageSignatureKey, sealed (`MindbodyCrypto`). */
  signatureKeyEnc: string;
  webhookUrl: string;
  /** Since when it has been inactive and could not be activated again; null while it delivers. */
  downSince?: Date | null;
  /** The status the hourly check last read, or null before one. */
  status?: string | null;
}

/** Which background work a process state belongs to. */
export type MindbodyProcessKind = 'import' | 'sync';

/** The wizard's discounts as stored (integer cents; null before the first save). */
export interface MindbodyDiscounts {
  discountOnReferralCents: number | null;
  discountForRefereeCents: number | null;
}

/** Processes in state 'running' for longer than this are taken as dead (the API restarted mid-job). */
const STALE_RUNNING_MINUTES = 15;

/**
 * The only way to `mindbody_integrations`, `mindbody_webhook_subscription` (the developer
 * account's one subscription: no business owns it) and `mindbody_webhook_messages`, except the import's
 * progress, which `MindbodyMembersRepository.upsertMembers` writes with each page. TENANCY: every
 * method of a business's rows takes a `BusinessScope` first (the session's, the job's, or for
 * webhooks `webhookScope` of the verified subscription) and every statement filters on it. Four
 * do not: `ownSubscriptionKeys` (the keys a delivery is verified with, before it names anyone),
 * `findSubscribedBySite` (public: it finds the businesses of a verified delivery's site), `withBusinessLock` (an advisory lock, no table) and `saveStaffToken` (the
 * site session passes the id of the integration row it read through a scoped `find`).
 */
@Injectable()
export class MindbodyRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly members: MindbodyMembersRepository,
  ) {}

  private repo(manager: EntityManager = this.dataSource.manager) {
    return manager.getRepository(MindbodyIntegrationEntity);
  }

  /** Runs an `UPDATE … RETURNING` and tells whether it changed a row (TypeORM answers UPDATE with `[rows, count]`). */
  private async updated(sql: string, params: unknown[]): Promise<boolean> {
    const [row] = (await this.dataSource.query(
      `WITH changed AS (${sql}) SELECT count(*)::int AS n FROM changed`,
      params,
    )) as {
      n: number;
    }[];
    return (row?.n ?? 0) > 0;
  }

  /** The business's integration row, or null before the first credentials check (stage 1). */
  find(scope: BusinessScope): Promise<MindbodyIntegrationEntity | null> {
    return this.repo().findOne({ where: { businessId: scope.businessId } });
  }

  /**
   * Stores checked credentials (sealed) and moves the stage to at least 2 (docs/product.md#mindbody-stages: valid
   * credentials give stage 2). Creates the row on first use. A Mindbody site belongs to one
   * business (issue 31): when another business holds `credentials.siteId` (its integration has
   * that site, at any stage), nothing is stored and that business is returned. The check and the
   * write hold a transaction-scoped advisory lock on the site, so two businesses claiming one site
   * at once (on any API instance) cannot both win.
   * @param stored runs in the write's transaction once the credentials are stored (the audit entry)
   * @returns null when stored; else the business holding the site
   */
  async saveCredentials(
    scope: BusinessScope,
    credentials: SealedCredentials,
    stored?: (manager: EntityManager) => Promise<void>,
  ): Promise<{ heldBy: string } | null> {
    return runTransaction(this.dataSource, async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('mindbody-site:' || $1))`, [
        credentials.siteId,
      ]);
      const [holder] = (await manager.query(
        `SELECT business_id FROM mindbody_integrations WHERE site_id = $1 AND business_id <> $2 LIMIT 1`,
        [credentials.siteId, scope.businessId],
      )) as { business_id: string }[];
      if (holder) return { heldBy: holder.business_id };
      await manager.query(
        `INSERT INTO mindbody_integrations
           (business_id, stage, site_id, username, password_enc, staff_token_enc, staff_token_expires_at)
         VALUES ($1, 2, $2, $3, $4, $5, $6)
         ON CONFLICT (business_id) DO UPDATE SET
           stage = GREATEST(mindbody_integrations.stage, 2), site_id = EXCLUDED.site_id, username = EXCLUDED.username,
           password_enc = EXCLUDED.password_enc, staff_token_enc = EXCLUDED.staff_token_enc,
           staff_token_expires_at = EXCLUDED.staff_token_expires_at, updated_at = now()`,
        [
          scope.businessId,
          credentials.siteId,
          credentials.username,
          credentials.passwordEnc,
          credentials.staffTokenEnc,
          credentials.staffTokenExpiresAt,
        ],
      );
      await stored?.(manager);
      return null;
    });
  }

  /**
   * Who to tell about a business's Mindbody site: its owners' login emails and first names, the
   * business's name and how it writes dates (for the 'someone tried to connect your site' email).
   */
  async siteOwners(businessId: string): Promise<SiteHolderOwner[]> {
    return accountHolderOwners(this.dataSource, businessId);
  }

  /** Replaces the stored staff token (after re-issuing an expired one). */
  async saveStaffToken(businessId: string, staffTokenEnc: string, expiresAt: Date): Promise<void> {
    await this.repo().update({ businessId }, { staffTokenEnc, staffTokenExpiresAt: expiresAt });
  }

  /**
   * Marks a process 'running' with zero progress, atomically, when the stage allows it and no
   * live process runs for this business. Exactly one of several concurrent callers (on any API
   * instance) wins.
   * @param minStage 2 for an import, 4 for a sync (docs/product.md#mindbody-stages stage table)
   * @returns true when this caller started the process
   */
  async startProcess(scope: BusinessScope, minStage: number): Promise<boolean> {
    return this.updated(
      `UPDATE mindbody_integrations
       SET process_state = 'running', progress_done = 0, progress_total = NULL, updated_at = now()
       WHERE business_id = $1 AND stage >= $2
         AND (process_state IS DISTINCT FROM 'running' OR updated_at < now() - make_interval(mins => $3))
       RETURNING business_id`,
      [scope.businessId, minStage, STALE_RUNNING_MINUTES],
    );
  }

  /**
   * Ends a process (docs/product.md#mindbody-stages process state): 'completed <ISO time>' or 'failed <ISO time>'. A
   * completed import moves stage 2 → 3; a completed sync records `last_sync_at` = `syncedFrom`
   * (when it started reading, so changes made during the sync are read by the next one); a
   * completed run records how many of its clients had an email that is not one plain mailbox
   * (`invalid_emails`, the run's summary; a failed run keeps the last one). Nothing changes when
   * the integration was removed meanwhile (stage 1). A sync, completed or failed, records how
   * many members' autopays it wrote (`last_sync_bills_written`, issue 25).
   * @param invalidEmails the completed run's clients stored with no email (issue 24 part 3)
   * @param billsWritten (sync) members whose Mindbody autopay the run wrote
   * @param finished runs in the same transaction when the integration was still there (the audit entry)
   */
  async finishProcess(
    scope: BusinessScope,
    kind: MindbodyProcessKind,
    ok: boolean,
    at: Date,
    syncedFrom = at,
    invalidEmails: number | null = null,
    billsWritten: number | null = null,
    finished?: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    const state = `${ok ? 'completed' : 'failed'} ${at.toISOString()}`;
    await runTransaction(this.dataSource, async (manager) => {
      const [, updated] = (await manager.query(
        `UPDATE mindbody_integrations SET
         process_state = $2,
         stage = CASE WHEN $3 AND stage = 2 THEN 3 ELSE stage END,
         last_sync_at = CASE WHEN $4 THEN $5::timestamptz ELSE last_sync_at END,
         invalid_emails = COALESCE($6::int, invalid_emails),
         last_sync_bills_written = COALESCE($7::int, last_sync_bills_written),
         updated_at = now()
       WHERE business_id = $1 AND stage > 1`,
        [
          scope.businessId,
          state,
          ok && kind === 'import',
          ok && kind === 'sync',
          syncedFrom,
          ok ? invalidEmails : null,
          kind === 'sync' ? billsWritten : null,
        ],
      )) as [unknown, number];
      if (updated > 0) await finished?.(manager);
    });
  }

  /**
   * Holds a webhook sync's bill changes for the owner (issue 31: no bill changes unconfirmed):
   * stores their count and fingerprint at stage 4, and `pending_bills_since` when none were held
   * before. In the same transaction, when none were held before (a new pending preview), `onNew`
   * runs with its connection (the owner's email is queued there: stored and told together, or
   * neither).
   * @param count members whose bill would change (> 0)
   * @param fingerprint `billChangesFingerprint` of those changes
   * @returns true when this started a new pending preview (`onNew` ran)
   */
  async holdPendingBills(
    scope: BusinessScope,
    count: number,
    fingerprint: string,
    onNew: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return runTransaction(this.dataSource, async (manager) => {
      const rows = (await manager.query(
        `WITH before AS (
           SELECT business_id, pending_bills_since FROM mindbody_integrations
           WHERE business_id = $1 AND stage = 4 FOR UPDATE)
         , changed AS (
           UPDATE mindbody_integrations m SET
             pending_bills_count = $2,
             pending_bills_fingerprint = $3,
             pending_bills_since = COALESCE(before.pending_bills_since, now())
           FROM before WHERE m.business_id = before.business_id
           RETURNING before.pending_bills_since IS NULL AS fresh)
         SELECT fresh FROM changed`,
        [scope.businessId, count, fingerprint],
      )) as { fresh: boolean }[];
      const fresh = rows[0]?.fresh === true;
      if (fresh) await onNew(manager);
      return fresh;
    });
  }

  /** Clears the pending bill changes (none wait for the owner any more: confirmed and written, or none left). */
  async clearPendingBills(scope: BusinessScope): Promise<void> {
    await this.dataSource.query(
      `UPDATE mindbody_integrations
       SET pending_bills_count = NULL, pending_bills_fingerprint = NULL, pending_bills_since = NULL
       WHERE business_id = $1 AND pending_bills_since IS NOT NULL`,
      [scope.businessId],
    );
  }

  /**
   * Saves the discounts (cents) when the stage is at least 3 and moves it to 4 (docs/product.md#mindbody-stages),
   * in one transaction with `saved` (the audit entry), which gets the discounts as they were (null
   * before the first save).
   * @returns false when the stage is below 3 (nothing changed)
   */
  async saveDiscounts(
    scope: BusinessScope,
    onReferralCents: number,
    forRefereeCents: number,
    saved?: (manager: EntityManager, before: MindbodyDiscounts) => Promise<void>,
  ): Promise<boolean> {
    return runTransaction(this.dataSource, async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE mindbody_integrations m
         SET discount_on_referral_cents = $2, discount_for_referee_cents = $3, stage = 4, updated_at = now()
         FROM (SELECT business_id, discount_on_referral_cents, discount_for_referee_cents
               FROM mindbody_integrations WHERE business_id = $1 FOR UPDATE) old
         WHERE m.business_id = old.business_id AND m.stage >= 3
         RETURNING old.discount_on_referral_cents AS "discountOnReferralCents",
                   old.discount_for_referee_cents AS "discountForRefereeCents"`,
        [scope.businessId, onReferralCents, forRefereeCents],
      )) as [MindbodyDiscounts[], number];
      const before = rows[0];
      if (!before) return false;
      await saved?.(manager, before);
      return true;
    });
  }

  /**
   * Saves the referral type Grove sends as AddClient's `ReferredBy` (issue 33 item 4), or null
   * for none, on an integration past stage 1.
   * @returns false when the business has no connected integration
   */
  async saveReferralType(scope: BusinessScope, referralType: string | null): Promise<boolean> {
    return this.updated(
      `UPDATE mindbody_integrations SET add_client_referral_type = $2, updated_at = now()
       WHERE business_id = $1 AND stage > 1
       RETURNING business_id`,
      [scope.businessId, referralType],
    );
  }

  /**
   * Adds a job's Mindbody calls to this month's count (a new month starts it again), and with
   * `run` (an import or a sync) records them as the last run's.
   */
  async recordCalls(scope: BusinessScope, calls: number, run: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE mindbody_integrations SET
         month_calls = CASE WHEN calls_month = date_trunc('month', now())::date THEN month_calls + $2 ELSE $2 END,
         calls_month = date_trunc('month', now())::date,
         last_run_calls = CASE WHEN $3 THEN $2 ELSE last_run_calls END
       WHERE business_id = $1 AND stage > 1`,
      [scope.businessId, calls, run],
    );
  }

  /** Records the webhook subscription (id and sealed signature key). */
  async saveSubscription(
    scope: BusinessScope,
    subscriptionId: string,
    signatureKeyEnc: string,
  ): Promise<void> {
    await this.repo().update(
      { businessId: scope.businessId },
      { webhookSubscriptionId: subscriptionId, webhookSignatureKeyEnc: signatureKeyEnc },
    );
  }

  /**
   * 'Remove integration' (docs/product.md#states), in one transaction: back to stage 1 with credentials,
   * token, discounts, process state and subscription cleared; imported members and prospects stay
   * as ordinary (hand-managed) rows.
   * @param done runs in the same transaction (the removal's audit entries)
   */
  async reset(
    scope: BusinessScope,
    done?: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    await runTransaction(this.dataSource, async (manager) => {
      await manager.query(
        `UPDATE mindbody_integrations SET stage = 1, site_id = NULL, username = NULL, password_enc = NULL,
           staff_token_enc = NULL, staff_token_expires_at = NULL, discount_on_referral_cents = NULL,
           discount_for_referee_cents = NULL, process_state = NULL, progress_done = NULL, progress_total = NULL, invalid_emails = NULL,
           last_sync_at = NULL, webhook_subscription_id = NULL, webhook_signature_key_enc = NULL,
           last_run_calls = NULL, month_calls = 0, calls_month = NULL, last_sync_bills_written = NULL,
           pending_bills_count = NULL, pending_bills_fingerprint = NULL, pending_bills_since = NULL,
           add_client_referral_type = NULL, updated_at = now()
         WHERE business_id = $1`,
        [scope.businessId],
      );
      await this.members.releaseManaged(scope, manager);
      await done?.(manager);
    });
  }

  /**
   * Every webhook subscription a business made of its own before Grove kept one for the developer
   * account (issue 22), at stage 4: site, business and sealed key (`MindbodyWebhookKeys` verifies
   * deliveries with them before anything else is read). Not scoped: a delivery names no business.
   */
  async ownSubscriptionKeys(): Promise<
    { businessId: string; siteId: string; signatureKeyEnc: string }[]
  > {
    const rows: { business_id: string; site_id: string; webhook_signature_key_enc: string }[] =
      await this.dataSource.query(
        `SELECT business_id, site_id, webhook_signature_key_enc FROM mindbody_integrations
         WHERE stage = 4 AND site_id IS NOT NULL AND webhook_signature_key_enc IS NOT NULL`,
      );
    return rows.map((row) => ({
      businessId: row.business_id,
      siteId: row.site_id,
      signatureKeyEnc: row.webhook_signature_key_enc,
    }));
  }

  /**
   * The ids of every webhook subscription whose key Grove holds: each business's own from before
   * the account's (issue 22), read in `manager`'s transaction (inside
   * {@link withAccountSubscription}: what `MindbodySiteClient.subscribe` must never delete). Not
   * scoped: the developer account's subscriptions are no one business's.
   */
  async heldSubscriptionIds(manager: EntityManager): Promise<Set<string>> {
    const rows: { id: string }[] = await manager.query(
      `SELECT webhook_subscription_id AS id FROM mindbody_integrations
        WHERE webhook_subscription_id IS NOT NULL`,
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * The businesses a delivery for this Mindbody site goes to: every integration of the site at
   * stage 4, with the sealed key of a subscription of its own made before Grove kept one for the
   * developer account (null for the others).
   */
  async findSubscribedBySite(
    siteId: string,
  ): Promise<{ businessId: string; signatureKeyEnc: string | null }[]> {
    const rows: { business_id: string; webhook_signature_key_enc: string | null }[] =
      await this.dataSource.query(
        `SELECT business_id, webhook_signature_key_enc FROM mindbody_integrations
         WHERE site_id = $1 AND stage = 4`,
        [siteId],
      );
    return rows.map((row) => ({
      businessId: row.business_id,
      signatureKeyEnc: row.webhook_signature_key_enc,
    }));
  }

  /** The developer account's webhook subscription, or null before the first business reached stage 4. */
  async accountSubscription(
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AccountSubscription | null> {
    const [row] = (await manager.query(
      `SELECT subscription_id, signature_key_enc, webhook_url, status, down_since
       FROM mindbody_webhook_subscription WHERE id = 1`,
    )) as {
      subscription_id: string;
      signature_key_enc: string;
      webhook_url: string;
      status: string | null;
      down_since: Date | null;
    }[];
    return row
      ? {
          subscriptionId: row.subscription_id,
          signatureKeyEnc: row.signature_key_enc,
          webhookUrl: row.webhook_url,
          status: row.status,
          downSince: row.down_since,
        }
      : null;
  }

  /**
   * Runs `work` in a transaction holding the account subscription's lock (a transaction-level
   * advisory lock), so two businesses reaching stage 4 at once, on any API instance, create one
   * subscription, and a removal does not delete it under a business that just subscribed.
   */
  async withAccountSubscription<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, async (manager) => {
      await manager.query(
        `SELECT pg_advisory_xact_lock(hashtext('mindbody:account-subscription'))`,
      );
      return work(manager);
    });
  }

  /** Stores the account's subscription (inside {@link withAccountSubscription}). */
  async saveAccountSubscription(
    manager: EntityManager,
    subscription: AccountSubscription,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO mindbody_webhook_subscription (id, subscription_id, signature_key_enc, webhook_url)
       VALUES (1, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET subscription_id = EXCLUDED.subscription_id,
         signature_key_enc = EXCLUDED.signature_key_enc, webhook_url = EXCLUDED.webhook_url, created_at = now()`,
      [subscription.subscriptionId, subscription.signatureKeyEnc, subscription.webhookUrl],
    );
  }

  /**
   * Records what the hourly check found: the status read (after any reactivation) and whether the
   * subscription delivers (`down_since` set at the first check that found it down, cleared when up).
   */
  async saveSubscriptionHealth(subscriptionId: string, status: string, up: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE mindbody_webhook_subscription SET status = $2, checked_at = now(),
         down_since = CASE WHEN $3 THEN NULL ELSE COALESCE(down_since, now()) END
       WHERE id = 1 AND subscription_id = $1`,
      [subscriptionId, status, up],
    );
  }

  /** Forgets the account's subscription (inside {@link withAccountSubscription}). */
  async deleteAccountSubscription(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM mindbody_webhook_subscription WHERE id = 1`);
  }

  /** How many integrations of any business are at stage 4 (the ones that need webhooks), this one excluded. */
  async otherSubscribedIntegrations(scope: BusinessScope, manager: EntityManager): Promise<number> {
    const [row] = (await manager.query(
      `SELECT count(*)::int AS n FROM mindbody_integrations WHERE stage = 4 AND business_id <> $1`,
      [scope.businessId],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /**
   * Records a webhook delivery for this business and runs `work` in the same transaction, once per
   * `messageId` and business (UNIQUE insert: a redelivery or a concurrent duplicate finds the id
   * taken and does nothing; another business of the same site processes it too).
   * @returns false for a duplicate
   */
  async oncePerMessage(
    scope: BusinessScope,
    messageId: string,
    work: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return runTransaction(this.dataSource, async (manager) => {
      const rows: unknown[] = await manager.query(
        `INSERT INTO mindbody_webhook_messages (message_id, business_id) VALUES ($1, $2)
         ON CONFLICT (message_id, business_id) DO NOTHING RETURNING message_id`,
        [messageId, scope.businessId],
      );
      if (rows.length === 0) return false;
      await work(manager);
      return true;
    });
  }

  /**
   * Runs `work` while holding this business's Mindbody lock (`withAdvisoryLock` on
   * `mindbody:<business id>`: a session-level advisory lock on a pool connection held for the
   * whole run), so imports and syncs of one business never overlap, whatever API instance runs
   * them. No time limit of its own; `stopping` gives up the wait.
   * @returns what `work` returns
   * @throws `stopping.reason` when it gave up waiting; else what `work` or the lock queries throw
   */
  async withBusinessLock<T>(
    businessId: string,
    work: () => Promise<T>,
    stopping?: AbortSignal,
  ): Promise<T> {
    return withAdvisoryLock(this.dataSource, `mindbody:${businessId}`, work, stopping);
  }
}
