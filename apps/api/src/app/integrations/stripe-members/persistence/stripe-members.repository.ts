import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { emailKey, isValidEmail } from '@grove/contracts';
import { nameKey } from '../../../membership/members-csv/import-plan';
import type { BusinessScope } from '../../../platform/database/business-scope';
import { auditActorParams } from '../../../platform/audit/audit.repository';
import { automaticLinksSql } from '../../../referral/links-for-everyone/automatic-links.sql';
import { newReferralCode } from '../../../referral/referrals/referral-code';
import { runTransaction } from '../../../platform/database/transaction';
import { withAdvisoryLock } from '../../../platform/database/business-lock';
import { countingBranch, priceLinesFrom } from '../../../membership/pricing/price.sql';
import {
  FACT_COLUMNS,
  ON_EVENT_KEY,
  keyTime,
  type FactSource,
} from '../../../membership/lifecycle/lifecycle.repository';
import {
  accountHolderOwners,
  type AccountHolderOwner,
} from '../../account-holder/account-holder.repository';
import type { GymSubscription } from '../client/gym-stripe.client';

/**
 * SQL: the ledger lines of the members in CTE `written` an import page added ('member_added') or
 * whose price it changed ('membership_price_changed'), as Mindbody's import writes them
 * (`priceLinesFrom`; `$1` = business).
 */
const IMPORT_PRICE_LINES = priceLinesFrom({
  rows: 'written r',
  reason: `'membership_price_changed'`,
  branchId: 'NULL::uuid',
  cause: `'stripe_import:' || ${keyTime('now()')}`,
});

/**
 * SQL: CTEs after a CTE `ended` of subscriptions just ended (`member_id`, `ended_at`; `$1` =
 * business): their members' `stripe_ended_at` (migration StripeEndedMembers: the branch stops
 * counting, `countingBranch`), each member's `member_ended` lifecycle fact (key
 * `member_ended:<member id>:<stripe_ended_at>`, so a replayed end writes nothing new) and its
 * 'membership_ended' ledger line at 0, as a Mindbody membership's end writes them
 * (`MindbodyMembersRepository.markCancelled`, docs/architecture.md#lifecycle-facts); `marked`
 * holds the members newly ended.
 * @param source the fact's source: 'stripe' (Stripe's `customer.subscription.deleted`) or 'import'
 *   (an import no longer listed the subscription)
 */
const markEndedMembers = (source: Extract<FactSource, 'stripe' | 'import'>): string => `marked AS (
         UPDATE members m SET stripe_ended_at = e.ended_at FROM ended e
         WHERE m.business_id = $1 AND m.id = e.member_id AND m.stripe_ended_at IS NULL
         RETURNING m.*
       ), ended_facts AS (
         INSERT INTO lifecycle_facts (${FACT_COLUMNS}, occurred_at)
         SELECT $1, 'member_ended', r.id, NULL, NULL, NULL, '${source}',
           'member_ended:' || r.id || ':' || ${keyTime('r.stripe_ended_at')}, r.stripe_ended_at
         FROM marked r
         ${ON_EVENT_KEY}
       ), ended_lines AS (
         ${priceLinesFrom({
           rows: 'marked r',
           reason: `'membership_ended'`,
           branchId: 'NULL::uuid',
           cause: `'stripe_ended:' || ${keyTime('r.stripe_ended_at')}`,
         })}
       )`;

/** A business's connected Stripe account (`stripe_member_integrations`). Cents. */
export interface StripeMemberIntegration {
  /** The restricted key, sealed (`sealSecret`). */
  apiKeySealed: string;
  keyLast4: string;
  livemode: boolean;
  /** Null until the owner saves the discounts. */
  discountOnReferralCents: number | null;
  discountForRefereeCents: number;
  importedAt: Date | null;
  lastSyncAt: Date | null;
  lastSyncBillsWritten: number | null;
  /** The signing secret of the gym's webhook endpoint, sealed, or null until the owner saves it. */
  webhookSecretSealed: string | null;
  /** The random path segment of the endpoint's URL (`/api/stripe-members/webhooks/{token}`). */
  webhookToken: string | null;
  /** The owner let Grove write the bills webhooks change under the confirmed discounts. */
  automaticSync: boolean;
  /** Since when a webhook's changes wait for the owner's review (null: none held). */
  pendingBillsSince: Date | null;
}

/** An imported subscription whose bill Grove may lower: the member, its price and Grove's discount now. Cents. */
export interface StripeBillTarget {
  memberId: string;
  name: string;
  subscriptionId: string;
  currency: string;
  /** The subscription's price before any discount (its items' amounts). */
  membershipPriceCents: number;
  /** What Grove's coupon takes off now (0: none). */
  groveDiscountCents: number;
  groveDiscountId: string | null;
  /** The gym's own discounts on the subscription, kept on every write. */
  otherDiscountIds: string[];
  /** Branches that count now (`countingBranch`). */
  branches: number;
  /** The member is itself a (counting-eligible) branch. */
  isBranch: boolean;
}

/** What an import page wrote. */
export interface ImportPageResult {
  /** Members created or whose price changed. */
  membersWritten: number;
  /** The members this page added (new to the business), with the customer they came from. */
  added: { memberId: string; customerId: string }[];
  /** Subscriptions imported or updated. */
  subscriptions: number;
}

/**
 * `stripe_member_integrations`, `stripe_member_subscriptions`, `stripe_member_coupons` and the
 * import's bulk writes on `members` (issue 32, docs/stripe.md#member-billing).
 * TENANCY: every method takes a `BusinessScope` first and every statement filters on its business
 * id; a subscription another business imported is never read or written (a Stripe account belongs
 * to one business).
 */
@Injectable()
export class StripeMembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs `work` while holding the business's Stripe bills lock (`withAdvisoryLock` on
   * `stripe-members:<business id>`, a session-level advisory lock on a pool connection of its own),
   * so a confirmed sync, a webhook's bills and a removal of one business decide and write one at a
   * time, whatever API instance runs them (docs/decisions/stripe-bills-one-at-a-time.md). Waits
   * without a time limit (the holder's job expiry bounds it) or until `stopping`.
   * @throws `stopping.reason` when it gave up waiting; else what `work` throws
   */
  async withBillsLock<T>(
    scope: BusinessScope,
    work: () => Promise<T>,
    stopping?: AbortSignal,
  ): Promise<T> {
    return withAdvisoryLock(this.dataSource, `stripe-members:${scope.businessId}`, work, stopping);
  }

  /** The business's connected account, or null. */
  async integration(scope: BusinessScope): Promise<StripeMemberIntegration | null> {
    const [row] = (await this.dataSource.query(
      `SELECT api_key_sealed, key_last4, livemode, discount_on_referral_cents, discount_for_referee_cents,
              imported_at, last_sync_at, last_sync_bills_written, webhook_secret_sealed, webhook_token,
              automatic_sync, pending_bills_since
       FROM stripe_member_integrations WHERE business_id = $1`,
      [scope.businessId],
    )) as {
      api_key_sealed: string;
      key_last4: string;
      livemode: boolean;
      discount_on_referral_cents: number | null;
      discount_for_referee_cents: number;
      imported_at: Date | null;
      last_sync_at: Date | null;
      last_sync_bills_written: number | null;
      webhook_secret_sealed: string | null;
      webhook_token: string | null;
      automatic_sync: boolean;
      pending_bills_since: Date | null;
    }[];
    return row
      ? {
          apiKeySealed: row.api_key_sealed,
          keyLast4: row.key_last4,
          livemode: row.livemode,
          discountOnReferralCents: row.discount_on_referral_cents,
          discountForRefereeCents: row.discount_for_referee_cents,
          importedAt: row.imported_at,
          lastSyncAt: row.last_sync_at,
          lastSyncBillsWritten: row.last_sync_bills_written,
          webhookSecretSealed: row.webhook_secret_sealed,
          webhookToken: row.webhook_token,
          automaticSync: row.automatic_sync,
          pendingBillsSince: row.pending_bills_since,
        }
      : null;
  }

  /**
   * Stores the sealed key (a new key replaces the old; discounts, imports and the webhook
   * endpoint's token, made at the first connection, stay), unless
   * another business imported one of `probeSubscriptionIds` (the account's first page of active
   * subscriptions): then nothing is stored. The check and the write hold a transaction-scoped
   * advisory lock on the first probe id, so two businesses connecting one account at once do not
   * both win. `stored` runs in the same transaction once stored (the audit entry).
   * @returns null when stored, else the id of the business that holds the account
   */
  async saveKey(
    scope: BusinessScope,
    key: { sealed: string; last4: string; livemode: boolean; webhookToken: string },
    probeSubscriptionIds: readonly string[],
    stored?: (manager: EntityManager) => Promise<void>,
  ): Promise<string | null> {
    return this.dataSource.transaction(async (manager) => {
      if (probeSubscriptionIds.length > 0)
        await manager.query(`SELECT pg_advisory_xact_lock(hashtext('stripe-account:' || $1))`, [
          [...probeSubscriptionIds].sort()[0],
        ]);
      const [claimed] = (await manager.query(
        `SELECT business_id FROM stripe_member_subscriptions
         WHERE stripe_subscription_id = ANY($2::text[]) AND business_id <> $1 LIMIT 1`,
        [scope.businessId, probeSubscriptionIds],
      )) as { business_id: string }[];
      if (claimed) return claimed.business_id;
      await manager.query(
        `INSERT INTO stripe_member_integrations (business_id, api_key_sealed, key_last4, livemode, webhook_token)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (business_id) DO UPDATE SET api_key_sealed = EXCLUDED.api_key_sealed,
           key_last4 = EXCLUDED.key_last4, livemode = EXCLUDED.livemode,
           webhook_token = COALESCE(stripe_member_integrations.webhook_token, EXCLUDED.webhook_token),
           updated_at = now()`,
        [scope.businessId, key.sealed, key.last4, key.livemode, key.webhookToken],
      );
      await stored?.(manager);
      return null;
    });
  }

  /**
   * Stores the sealed signing secret of the gym's webhook endpoint (a new one replaces the old).
   * @returns false when the business has no connected account
   */
  async saveWebhook(scope: BusinessScope, sealed: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `UPDATE stripe_member_integrations SET webhook_secret_sealed = $2, updated_at = now()
       WHERE business_id = $1 RETURNING 1`,
      [scope.businessId, sealed],
    )) as [unknown[], number];
    return rows[1] > 0;
  }

  /**
   * The business and sealed signing secret of a webhook endpoint's token, or null. TENANCY: the
   * one lookup not scoped by a session: the public webhook route learns its business from the
   * token, and the signature checked with that business's secret proves the delivery.
   */
  async webhookOf(token: string): Promise<{ businessId: string; secretSealed: string } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT business_id, webhook_secret_sealed FROM stripe_member_integrations
       WHERE webhook_token = $1 AND webhook_secret_sealed IS NOT NULL`,
      [token],
    )) as { business_id: string; webhook_secret_sealed: string }[];
    return row ? { businessId: row.business_id, secretSealed: row.webhook_secret_sealed } : null;
  }

  /**
   * Records a received event of the business's account in `manager`'s transaction.
   * @returns false when it was received before (a replay: nothing more to do)
   */
  async recordEvent(
    scope: BusinessScope,
    manager: EntityManager,
    eventId: string,
    type: string,
  ): Promise<boolean> {
    const rows = (await manager.query(
      `INSERT INTO stripe_member_events (business_id, event_id, type) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [scope.businessId, eventId, type],
    )) as unknown[];
    return rows.length > 0;
  }

  /**
   * Records the first paid invoice of a customer's imported subscriptions (the earliest known
   * wins: a replay or an older invoice read later changes nothing twice).
   * @returns the members whose first payment became known or earlier
   */
  async recordFirstPayment(
    scope: BusinessScope,
    customerId: string,
    paidAt: Date,
  ): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `UPDATE stripe_member_subscriptions SET first_paid_at = $3, updated_at = now()
       WHERE business_id = $1 AND stripe_customer_id = $2
         AND (first_paid_at IS NULL OR first_paid_at > $3)
       RETURNING member_id`,
      [scope.businessId, customerId, paidAt],
    )) as [{ member_id: string }[], number];
    return rows[0].map((row) => row.member_id);
  }

  /**
   * Ends an imported subscription Stripe says has ended, and its member's membership with it
   * (`markEndedMembers`: `stripe_ended_at`, the `member_ended` fact, the ledger's 'membership_ended' line; the branch
   * refresh that follows lapses the branch and writes its referrer's 'branch_lapsed' line, as for
   * a Mindbody friend); `ended` runs in the same transaction with its member (the audit entry).
   * @returns false when unknown or ended already
   */
  async endSubscription(
    scope: BusinessScope,
    subscriptionId: string,
    ended?: (manager: EntityManager, member: { id: string; name: string }) => Promise<void>,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const rows = (await manager.query(
        `WITH ended AS (
           UPDATE stripe_member_subscriptions SET ended_at = now(), updated_at = now()
           WHERE business_id = $1 AND stripe_subscription_id = $2 AND ended_at IS NULL
           RETURNING member_id, ended_at
         ), ${markEndedMembers('stripe')}
         SELECT m.id, m.name FROM ended e JOIN members m ON m.business_id = $1 AND m.id = e.member_id`,
        [scope.businessId, subscriptionId],
      )) as { id: string; name: string }[];
      if (rows[0]) await ended?.(manager, rows[0]);
      return rows.length > 0;
    });
  }

  /**
   * Marks bills as held for the owner's review (the first holding time is kept). When none were
   * held before, `onNew` runs in the same transaction (the owners' email is queued there, so it is
   * sent once per batch of held bills, and only if the hold commits).
   * @returns whether this hold is new (nothing was held before)
   */
  async holdBills(
    scope: BusinessScope,
    onNew: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return runTransaction(this.dataSource, async (manager) => {
      const rows = (await manager.query(
        `WITH before AS (
           SELECT business_id, pending_bills_since FROM stripe_member_integrations
           WHERE business_id = $1 FOR UPDATE)
         UPDATE stripe_member_integrations s SET
           pending_bills_since = COALESCE(before.pending_bills_since, now()), updated_at = now()
         FROM before WHERE s.business_id = before.business_id
         RETURNING before.pending_bills_since IS NULL AS fresh`,
        [scope.businessId],
      )) as [{ fresh: boolean }[], number];
      const fresh = rows[0][0]?.fresh === true;
      if (fresh) await onNew(manager);
      return fresh;
    });
  }

  /** Nothing waits for the owner's review any more (the changes went away before being confirmed). */
  async clearHeldBills(scope: BusinessScope): Promise<void> {
    await this.dataSource.query(
      `UPDATE stripe_member_integrations SET pending_bills_since = NULL, updated_at = now()
       WHERE business_id = $1 AND pending_bills_since IS NOT NULL`,
      [scope.businessId],
    );
  }

  /**
   * Saves the referral discounts (cents), in one transaction with `saved` (the audit entry), which
   * gets the discounts as they were (null before the first save).
   * @returns false when the business has no connected account (nothing changed)
   */
  async saveDiscounts(
    scope: BusinessScope,
    onReferralCents: number,
    forRefereeCents: number,
    saved?: (
      manager: EntityManager,
      before: { discountOnReferralCents: number | null; discountForRefereeCents: number | null },
    ) => Promise<void>,
  ): Promise<boolean> {
    return runTransaction(this.dataSource, async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE stripe_member_integrations s SET discount_on_referral_cents = $2,
           discount_for_referee_cents = $3,
           automatic_sync = s.automatic_sync AND s.discount_on_referral_cents IS NOT DISTINCT FROM $2
             AND s.discount_for_referee_cents = $3,
           updated_at = now()
         FROM (SELECT business_id, discount_on_referral_cents, discount_for_referee_cents
               FROM stripe_member_integrations WHERE business_id = $1 FOR UPDATE) old
         WHERE s.business_id = old.business_id
         RETURNING old.discount_on_referral_cents AS "discountOnReferralCents",
                   old.discount_for_referee_cents AS "discountForRefereeCents"`,
        [scope.businessId, onReferralCents, forRefereeCents],
      )) as [
        { discountOnReferralCents: number | null; discountForRefereeCents: number | null }[],
        number,
      ];
      const before = rows[0];
      if (!before) return false;
      await saved?.(manager, before);
      return true;
    });
  }

  /** The database's current time: an import's start (announced as 'members.bulk-added'). */
  async now(): Promise<Date> {
    const [row] = (await this.dataSource.query(`SELECT now() AS now`)) as { now: Date }[];
    return row.now;
  }

  /**
   * Writes one page of the gym's active subscriptions in ONE statement: each becomes a member
   * matched by email key (`emailKey`, as the Mindbody import matches; `stripe:<customer id>` when
   * Stripe has no email): a member with that key is adopted and takes the subscription's price, a
   * new one is added (price = the subscription's, `member_added` fact, source 'import'), each with
   * its ledger line (`price_changes`: 'member_added', or 'membership_price_changed'); then its
   * `stripe_member_subscriptions` row is written (the gym's own discounts: every listed `di_` id
   * but Grove's); a member whose subscription had ended runs again (`stripe_ended_at` cleared:
   * its branch resumes counting at the next refresh). When the business's automatic-link setting
   * is on, each new member (not an adopted one) gets its referral link, `link_created` fact and
   * 'link.created' audit entry (source 'automatic', authored by `scope`'s actor) in the same
   * statement (`automaticLinksSql`, shared with the Mindbody import); a member that already has a
   * live link keeps it. A customer with two subscriptions keeps the first listed (Stripe lists newest
   * first); a subscription another business imported is skipped. Idempotent: an unchanged page
   * changes nothing.
   */
  async importPage(
    scope: BusinessScope,
    page: readonly GymSubscription[],
  ): Promise<ImportPageResult> {
    const seen = new Set<string>();
    const rows = page
      .map((sub) => ({
        ...sub,
        key: sub.email ? emailKey(sub.email) : `stripe:${sub.customerId}`,
        displayName: sub.name.trim() || sub.email || sub.customerId,
      }))
      .filter((sub) => !seen.has(sub.key) && seen.add(sub.key));
    if (rows.length === 0) return { membersWritten: 0, subscriptions: 0, added: [] };
    const [result] = (await this.dataSource.query(
      `WITH input AS (
         -- Each row's member with its key (any member: a Mindbody one is not adopted, and its key
         -- is not added again), looked up row by row through the unique (business_id, email_key)
         -- index (LATERAL … LIMIT 1 is not flattened into a join): a join planned on this CTE's
         -- estimate (1 row) compared every member of the business with every row of every page
         -- (docs/decisions/stripe-member-billing.md#the-first-import-set-based-session-24).
         SELECT i.*, string_to_array(NULLIF(i.discounts, ''), ',') AS discount_ids,
           k.id AS known_id, (k.id IS NOT NULL AND k.mindbody_client_id IS NULL) AS ours,
           -- An adopted member whose price changed or whose subscription had ended.
           (k.id IS NOT NULL AND k.mindbody_client_id IS NULL
             AND (k.membership_price_cents <> i.price_cents OR k.stripe_ended_at IS NOT NULL)) AS changed
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[])
           AS i(subscription_id, customer_id, name, email, email_key, currency, price_cents, discounts)
         LEFT JOIN LATERAL (
           SELECT m.id, m.mindbody_client_id, m.membership_price_cents, m.stripe_ended_at FROM members m
           WHERE m.business_id = $1 AND m.email_key = i.email_key LIMIT 1
         ) k ON true
         WHERE NOT EXISTS (SELECT 1 FROM stripe_member_subscriptions x
                           WHERE x.stripe_subscription_id = i.subscription_id AND x.business_id <> $1)
       ), adopted AS (
         -- A member whose subscription had ended runs again: its membership too (stripe_ended_at).
         UPDATE members m SET membership_price_cents = i.price_cents, stripe_ended_at = NULL
         FROM input i
         WHERE m.business_id = $1 AND m.id = i.known_id AND i.changed
           -- Only the page's changed members (none in a first or an unchanged import), whatever
           -- the join's estimate.
           AND m.id = ANY (ARRAY(SELECT known_id FROM input WHERE changed))
           AND (m.membership_price_cents <> i.price_cents OR m.stripe_ended_at IS NOT NULL)
         RETURNING m.*
       ), added AS (
         INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents)
         SELECT $1, i.name, i.email, i.email_key, i.price_cents, 0 FROM input i
         -- Only keys not there yet: a conflicting row would still fire the BEFORE INSERT triggers.
         WHERE i.known_id IS NULL
         ON CONFLICT (business_id, email_key) DO NOTHING
         RETURNING *
       ), written AS (
         SELECT * FROM adopted UNION ALL SELECT * FROM added
       ), new_links AS (
         -- The new members and their codes, for the automatic links (an adopted member is not new).
         SELECT a.id, a.name, c.code FROM added a
         JOIN unnest($6::text[], $10::text[]) AS c(email_key, code) ON c.email_key = a.email_key
       )${automaticLinksSql('new_links', { business: '$1', actor: '$11', user: '$12::uuid' })}, prices AS (
         ${IMPORT_PRICE_LINES}
       ), facts AS (
         INSERT INTO lifecycle_facts (${FACT_COLUMNS}, occurred_at)
         SELECT $1, 'member_added', a.id, NULL, NULL, NULL, 'import', 'member_added:' || a.id, a.created_at
         FROM added a
         ${ON_EVENT_KEY}
       ), targets AS (
         SELECT i.*, COALESCE(a.id, CASE WHEN i.ours THEN i.known_id END) AS member_id
         FROM input i
         LEFT JOIN added a ON a.email_key = i.email_key
       ), linked AS (
         INSERT INTO stripe_member_subscriptions AS s (business_id, member_id, stripe_subscription_id,
           stripe_customer_id, currency, price_cents, other_discount_ids)
         SELECT $1, t.member_id, t.subscription_id, t.customer_id, t.currency, t.price_cents,
           COALESCE(t.discount_ids, '{}')
         FROM targets t WHERE t.member_id IS NOT NULL
         ON CONFLICT (business_id, member_id) DO UPDATE SET
           stripe_subscription_id = EXCLUDED.stripe_subscription_id,
           stripe_customer_id = EXCLUDED.stripe_customer_id,
           currency = EXCLUDED.currency, price_cents = EXCLUDED.price_cents,
           other_discount_ids = ARRAY(SELECT d FROM unnest(EXCLUDED.other_discount_ids) d
                                      WHERE d IS DISTINCT FROM s.grove_discount_id),
           grove_discount_cents = CASE WHEN s.stripe_subscription_id = EXCLUDED.stripe_subscription_id
                                       THEN LEAST(s.grove_discount_cents, EXCLUDED.price_cents) ELSE 0 END,
           grove_discount_id = CASE WHEN s.stripe_subscription_id = EXCLUDED.stripe_subscription_id
                                    THEN s.grove_discount_id END,
           ended_at = NULL, updated_at = now()
         WHERE (s.stripe_subscription_id, s.currency, s.price_cents, s.ended_at IS NULL,
                ARRAY(SELECT d FROM unnest(EXCLUDED.other_discount_ids) d WHERE d IS DISTINCT FROM s.grove_discount_id))
           IS DISTINCT FROM (EXCLUDED.stripe_subscription_id, EXCLUDED.currency, EXCLUDED.price_cents, true,
                s.other_discount_ids)
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM adopted)::int + (SELECT count(*) FROM added)::int AS members,
              (SELECT count(*) FROM linked)::int AS subscriptions,
              (SELECT COALESCE(json_agg(json_build_object('memberId', a.id, 'customerId', i.customer_id)), '[]'::json)
                 FROM added a JOIN input i ON i.email_key = a.email_key) AS added`,
      [
        scope.businessId,
        rows.map((row) => row.subscriptionId),
        rows.map((row) => row.customerId),
        rows.map((row) => row.displayName),
        rows.map((row) => row.email),
        rows.map((row) => row.key),
        rows.map((row) => row.currency),
        rows.map((row) => row.priceCents),
        rows.map((row) => row.discountIds.join(',')),
        rows.map(() => newReferralCode()),
        ...auditActorParams(scope),
      ],
    )) as {
      members: number;
      subscriptions: number;
      added: { memberId: string; customerId: string }[];
    }[];
    return {
      membersWritten: result.members,
      subscriptions: result.subscriptions,
      added: result.added,
    };
  }

  /**
   * The business's members a Stripe customer's "referred by" names, besides `selfId`: those whose
   * email key is `text`'s (when it is an email), else those whose name is `text` as the desk and
   * the CSV compare names (`nameKey`: trimmed, spaces collapsed, NFC, ’ as ', lower case). At most
   * two (two mean the name is not unique).
   */
  async referrerCandidates(scope: BusinessScope, selfId: string, text: string): Promise<string[]> {
    const byEmail = isValidEmail(text);
    const rows = (await this.dataSource.query(
      byEmail
        ? `SELECT id FROM members WHERE business_id = $1 AND id <> $2 AND email_key = $3 LIMIT 2`
        : `SELECT id FROM members WHERE business_id = $1 AND id <> $2 AND erased_at IS NULL
             AND lower(replace(regexp_replace(btrim(normalize(name, NFC)), '\\s+', ' ', 'g'), '’', '''')) = $3
           LIMIT 2`,
      [scope.businessId, selfId, byEmail ? emailKey(text) : nameKey(text)],
    )) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /**
   * Keeps `note` as member `memberId`'s "referred by" (it then waits in Referrals to match,
   * docs/product.md#referrals-to-match) when the member has no referrer and no note yet.
   * @returns false when nothing changed
   */
  async keepReferredByNote(scope: BusinessScope, memberId: string, note: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(
      `UPDATE members SET referred_by_note = $3
        WHERE business_id = $1 AND id = $2 AND referred_by_id IS NULL AND referred_by_note IS NULL`,
      [scope.businessId, memberId, note],
    )) as [unknown, number];
    return affected > 0;
  }

  /**
   * Ends the business's imported subscriptions the import no longer listed as active (not in
   * `listed`) with their members' memberships (`markEndedMembers`) and records the import's time; `finished` runs in the same transaction with the
   * count ended (the audit entry). @returns subscriptions ended
   */
  async finishImport(
    scope: BusinessScope,
    listed: readonly string[],
    finished?: (manager: EntityManager, ended: number) => Promise<void>,
  ): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [result] = (await manager.query(
        `WITH ended AS (
         UPDATE stripe_member_subscriptions SET ended_at = now(), updated_at = now()
         -- NOT IN a subquery: a hashed lookup, where NOT (= ANY(array)) scans the array per row.
         WHERE business_id = $1 AND ended_at IS NULL
           AND stripe_subscription_id NOT IN (SELECT unnest($2::text[]))
         RETURNING member_id, ended_at
       ), ${markEndedMembers('import')}, done AS (
         UPDATE stripe_member_integrations SET imported_at = now(), updated_at = now()
         WHERE business_id = $1 RETURNING 1
       )
       SELECT (SELECT count(*) FROM ended)::int AS ended, (SELECT count(*) FROM done)::int AS done`,
        [scope.businessId, listed],
      )) as { ended: number }[];
      await finished?.(manager, result.ended);
      return result.ended;
    });
  }

  /**
   * The business's running imported subscriptions with their members and counting branches, for
   * the sync and its preview. A branch counts by the business's rule (`countingBranch`: not one
   * whose own Stripe subscription ended, `stripe_ended_at`), as Grove's own price counts it.
   */
  async billTargets(scope: BusinessScope): Promise<StripeBillTarget[]> {
    const rows = (await this.dataSource.query(
      `SELECT m.id, m.name, s.stripe_subscription_id, s.currency, s.price_cents, s.grove_discount_cents,
         s.grove_discount_id, s.other_discount_ids, (m.referred_by_id IS NOT NULL) AS is_branch,
         (SELECT count(*) FROM members b
          WHERE b.business_id = $1 AND b.referred_by_id = m.id AND ${countingBranch('b')})::int AS branches
       FROM stripe_member_subscriptions s
       JOIN members m ON m.business_id = $1 AND m.id = s.member_id
       WHERE s.business_id = $1 AND s.ended_at IS NULL`,
      [scope.businessId],
    )) as {
      id: string;
      name: string;
      stripe_subscription_id: string;
      currency: string;
      price_cents: number;
      grove_discount_cents: number;
      grove_discount_id: string | null;
      other_discount_ids: string[];
      is_branch: boolean;
      branches: number;
    }[];
    return rows.map((row) => ({
      memberId: row.id,
      name: row.name,
      subscriptionId: row.stripe_subscription_id,
      currency: row.currency,
      membershipPriceCents: row.price_cents,
      groveDiscountCents: row.grove_discount_cents,
      groveDiscountId: row.grove_discount_id,
      otherDiscountIds: row.other_discount_ids,
      branches: row.branches,
      isBranch: row.is_branch,
    }));
  }

  /**
   * The running imported subscription of one of the business's members and its version (its id
   * and `updated_at`: every write Grove makes to the row moves it), or null.
   */
  async subscriptionVersionOf(
    scope: BusinessScope,
    memberId: string,
  ): Promise<{ subscriptionId: string; version: string } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT stripe_subscription_id, stripe_subscription_id || ':' || updated_at::text AS version
       FROM stripe_member_subscriptions
       WHERE business_id = $1 AND member_id = $2 AND ended_at IS NULL`,
      [scope.businessId, memberId],
    )) as { stripe_subscription_id: string; version: string }[];
    return row ? { subscriptionId: row.stripe_subscription_id, version: row.version } : null;
  }

  /** The running imported subscription of one of the business's members, or null. */
  async subscriptionOf(scope: BusinessScope, memberId: string): Promise<string | null> {
    const [row] = (await this.dataSource.query(
      `SELECT stripe_subscription_id FROM stripe_member_subscriptions
       WHERE business_id = $1 AND member_id = $2 AND ended_at IS NULL`,
      [scope.businessId, memberId],
    )) as { stripe_subscription_id: string }[];
    return row?.stripe_subscription_id ?? null;
  }

  /**
   * Keeps a discount Grove wrote besides its referral coupon (a friend's welcome offer) among the
   * subscription's other discounts, so the next sync's write keeps it. Nothing when the
   * subscription is not imported yet (the import reads its discounts from Stripe).
   */
  async keepDiscount(
    scope: BusinessScope,
    subscriptionId: string,
    discountId: string,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE stripe_member_subscriptions SET other_discount_ids = array_append(other_discount_ids, $3), updated_at = now()
        WHERE business_id = $1 AND stripe_subscription_id = $2 AND NOT ($3 = ANY (other_discount_ids))`,
      [scope.businessId, subscriptionId, discountId],
    );
  }

  /** The Stripe customer of a member's running imported subscription, or null. */
  async customerOf(scope: BusinessScope, memberId: string): Promise<string | null> {
    const [row] = (await this.dataSource.query(
      `SELECT stripe_customer_id FROM stripe_member_subscriptions
       WHERE business_id = $1 AND member_id = $2 AND ended_at IS NULL`,
      [scope.businessId, memberId],
    )) as { stripe_customer_id: string }[];
    return row?.stripe_customer_id ?? null;
  }

  /** Grove's coupon of `amountCents` in `currency` in the business's account, or null. */
  async coupon(
    scope: BusinessScope,
    currency: string,
    amountCents: number,
  ): Promise<string | null> {
    const [row] = (await this.dataSource.query(
      `SELECT coupon_id FROM stripe_member_coupons
       WHERE business_id = $1 AND currency = $2 AND amount_off_cents = $3`,
      [scope.businessId, currency, amountCents],
    )) as { coupon_id: string }[];
    return row?.coupon_id ?? null;
  }

  /** Remembers Grove's coupon of an amount and currency (the first one stored wins). */
  async saveCoupon(
    scope: BusinessScope,
    currency: string,
    amountCents: number,
    couponId: string,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO stripe_member_coupons (business_id, currency, amount_off_cents, coupon_id)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [scope.businessId, currency, amountCents, couponId],
    );
  }

  /**
   * Records the discount Grove's write left on a subscription (0 and nulls: none); `written` runs
   * in the same transaction (the bill's audit entry).
   */
  async setGroveDiscount(
    scope: BusinessScope,
    subscriptionId: string,
    cents: number,
    couponId: string | null,
    discountId: string | null,
    written?: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `UPDATE stripe_member_subscriptions SET grove_discount_cents = $3, grove_coupon_id = $4,
         grove_discount_id = $5, updated_at = now()
       WHERE business_id = $1 AND stripe_subscription_id = $2`,
        [scope.businessId, subscriptionId, cents, couponId, discountId],
      );
      await written?.(manager);
    });
  }

  /**
   * Records a sync: its time, the bills it wrote, nothing held any more, and (the owner's
   * confirmation only) whether the owner let webhooks' changes be written automatically.
   */
  async recordSync(
    scope: BusinessScope,
    billsWritten: number,
    automaticSync?: boolean,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE stripe_member_integrations SET last_sync_at = now(), last_sync_bills_written = $2,
         pending_bills_since = NULL, automatic_sync = COALESCE($3, automatic_sync),
         updated_at = now() WHERE business_id = $1`,
      [scope.businessId, billsWritten, automaticSync ?? null],
    );
  }

  /**
   * The subscriptions that carry a discount of Grove's (also ended ones: Stripe may still bill
   * them), with their member and what they bill (`priceCents`, `groveDiscountCents`, cents).
   */
  async discounted(scope: BusinessScope): Promise<
    {
      subscriptionId: string;
      otherDiscountIds: string[];
      endedAt: Date | null;
      memberId: string;
      name: string;
      priceCents: number;
      groveDiscountCents: number;
    }[]
  > {
    const rows = (await this.dataSource.query(
      `SELECT s.stripe_subscription_id, s.other_discount_ids, s.ended_at, m.id AS member_id, m.name,
              s.price_cents, s.grove_discount_cents
       FROM stripe_member_subscriptions s
       JOIN members m ON m.business_id = $1 AND m.id = s.member_id
       WHERE s.business_id = $1 AND s.grove_discount_cents > 0`,
      [scope.businessId],
    )) as {
      stripe_subscription_id: string;
      other_discount_ids: string[];
      ended_at: Date | null;
      member_id: string;
      name: string;
      price_cents: number;
      grove_discount_cents: number;
    }[];
    return rows.map((row) => ({
      subscriptionId: row.stripe_subscription_id,
      otherDiscountIds: row.other_discount_ids,
      endedAt: row.ended_at,
      memberId: row.member_id,
      name: row.name,
      priceCents: row.price_cents,
      groveDiscountCents: row.grove_discount_cents,
    }));
  }

  /** Who to tell that another Grove account tried to connect the Stripe account a business holds. */
  holderOwners(businessId: string): Promise<AccountHolderOwner[]> {
    return accountHolderOwners(this.dataSource, businessId);
  }

  /** Running imported subscriptions and those carrying Grove's discount, for the status. */
  async counts(scope: BusinessScope): Promise<{ subscriptions: number; discounted: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE ended_at IS NULL)::int AS subscriptions,
              count(*) FILTER (WHERE grove_discount_cents > 0)::int AS discounted
       FROM stripe_member_subscriptions WHERE business_id = $1`,
      [scope.businessId],
    )) as { subscriptions: number; discounted: number }[];
    return row;
  }

  /**
   * Forgets the account: key, imported subscriptions and coupons (members stay); `removed` runs in
   * the same transaction (the audit entry).
   */
  async remove(
    scope: BusinessScope,
    removed?: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`DELETE FROM stripe_member_subscriptions WHERE business_id = $1`, [
        scope.businessId,
      ]);
      await manager.query(`DELETE FROM stripe_member_coupons WHERE business_id = $1`, [
        scope.businessId,
      ]);
      await manager.query(`DELETE FROM stripe_member_integrations WHERE business_id = $1`, [
        scope.businessId,
      ]);
      await removed?.(manager);
    });
  }
}
