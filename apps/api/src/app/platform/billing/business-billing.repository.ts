import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusinessScope } from '../database/business-scope';
import type { BillingFacts } from './billing-standing';

/** A business's row of `business_billing` with the facts the standing rule needs. */
export interface BusinessBilling extends BillingFacts {
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  /** End of the paid period (the next charge's date); null without a subscription. */
  currentPeriodEnd: Date | null;
  /** What the subscription charges each period, in cents of `currency`; null without one. */
  amountCents: number | null;
  /** Lower-case ISO 4217 code of `amountCents`. */
  currency: string | null;
  cancelAtPeriodEnd: boolean;
}

/** A subscription as Grove keeps it: Stripe's state when it was last read. */
export interface SubscriptionSnapshot {
  id: string;
  /** Stripe's status: `active`, `past_due`, `unpaid`, `canceled`, `incomplete`, `trialing`… */
  status: string;
  currentPeriodEnd: Date | null;
  amountCents: number | null;
  currency: string | null;
  cancelAtPeriodEnd: boolean;
  /** When it ended (`ended_at`); null while it runs. */
  endedAt: Date | null;
}

/** Who Grove writes to about a business's bill: its owner's login email and first name. */
export interface BillingContact {
  businessName: string;
  /** The business's country (ISO 3166-1 alpha-2): its currency picks the plan's price. */
  country: string;
  email: string;
  firstName: string;
}

interface FactsRow {
  arrived: number;
  free_used_at: Date | null;
  counting_since: Date;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: string | null;
  current_period_end: Date | null;
  amount_cents: number | null;
  currency: string | null;
  cancel_at_period_end: boolean | null;
  payment_failed_at: Date | null;
  subscription_ended_at: Date | null;
}

/** Subscription statuses whose renewal payment failed (the standing rule's 'past-due'). */
const FAILING_STATUSES = ['past_due', 'unpaid'];

/**
 * The only way to `business_billing` and `stripe_events` (docs/product.md#billing). TENANCY:
 * every business's row is reached through a `BusinessScope`; `customerState` is how a
 * signed Stripe event finds its one business.
 */
@Injectable()
export class BusinessBillingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The business's bill as Grove knows it, in one statement: its `business_billing` row (a
   * business without one counts from its creation) and the members who arrived through Grove
   * (its `prospect_approved` lifecycle facts, docs/product.md#billing).
   * @param freeMembers the plan's free members (when the last of them arrived is read)
   */
  async facts({ businessId }: BusinessScope, freeMembers: number): Promise<BusinessBilling> {
    const [row] = (await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM lifecycle_facts f
                WHERE f.business_id = biz.id AND f.kind = 'prospect_approved') AS arrived,
              (SELECT f.occurred_at FROM lifecycle_facts f
                WHERE f.business_id = biz.id AND f.kind = 'prospect_approved'
                ORDER BY f.occurred_at, f.id OFFSET $2 LIMIT 1) AS free_used_at,
              coalesce(b.counting_since, biz.created_at) AS counting_since,
              b.stripe_customer_id, b.stripe_subscription_id, b.subscription_status,
              b.current_period_end, b.amount_cents, b.currency, b.cancel_at_period_end,
              b.payment_failed_at, b.subscription_ended_at
         FROM businesses biz
         LEFT JOIN business_billing b ON b.business_id = biz.id
        WHERE biz.id = $1`,
      [businessId, Math.max(freeMembers - 1, 0)],
    )) as FactsRow[];
    return {
      membersThroughGrove: row.arrived,
      freeMembersUsedAt: freeMembers > 0 ? row.free_used_at : row.counting_since,
      countingSince: row.counting_since,
      stripeCustomerId: row.stripe_customer_id,
      stripeSubscriptionId: row.stripe_subscription_id,
      subscriptionStatus: row.subscription_status,
      currentPeriodEnd: row.current_period_end,
      amountCents: row.amount_cents,
      currency: row.currency,
      cancelAtPeriodEnd: row.cancel_at_period_end ?? false,
      paymentFailedAt: row.payment_failed_at,
      subscriptionEndedAt: row.subscription_ended_at,
    };
  }

  /** The owner Grove writes to about the bill (the business's first user), or null when gone. */
  async contact({ businessId }: BusinessScope): Promise<BillingContact | null> {
    const rows = (await this.dataSource.query(
      `SELECT b.name AS business_name, b.country, u.email, u.first_name
         FROM businesses b JOIN users u ON u.business_id = b.id
        WHERE b.id = $1 ORDER BY u.created_at, u.id LIMIT 1`,
      [businessId],
    )) as { business_name: string; country: string; email: string; first_name: string }[];
    const row = rows[0];
    return row
      ? {
          businessName: row.business_name,
          country: row.country,
          email: row.email,
          firstName: row.first_name,
        }
      : null;
  }

  /**
   * Stores the business's Stripe customer unless it already has one.
   * @returns the customer id the business has now (the stored one when a concurrent request won)
   */
  async claimCustomer({ businessId }: BusinessScope, customerId: string): Promise<string> {
    const [row] = (await this.dataSource.query(
      `INSERT INTO business_billing (business_id, stripe_customer_id,
                                     counting_since)
       SELECT biz.id, $2, biz.created_at FROM businesses biz WHERE biz.id = $1
       ON CONFLICT (business_id) DO UPDATE
         SET stripe_customer_id = coalesce(business_billing.stripe_customer_id, EXCLUDED.stripe_customer_id)
       RETURNING stripe_customer_id`,
      [businessId, customerId],
    )) as { stripe_customer_id: string }[];
    return row.stripe_customer_id;
  }

  /**
   * Puts `customerId` in place of `missingId`, a customer Stripe no longer has (a concurrent
   * request may have done it first).
   * @returns the customer id the business has now
   */
  async replaceCustomer(
    scope: BusinessScope,
    missingId: string,
    customerId: string,
  ): Promise<string> {
    const { businessId } = scope;
    const [rows] = (await this.dataSource.query(
      `UPDATE business_billing SET stripe_customer_id = $3
       WHERE business_id = $1 AND stripe_customer_id = $2 RETURNING stripe_customer_id`,
      [businessId, missingId, customerId],
    )) as [{ stripe_customer_id: string }[], number];
    if (rows[0]) return rows[0].stripe_customer_id;
    return this.claimCustomer(scope, customerId);
  }

  /** Forgets `missingId`, a customer Stripe no longer has, unless it was replaced meanwhile. */
  async forgetCustomer({ businessId }: BusinessScope, missingId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE business_billing SET stripe_customer_id = NULL
       WHERE business_id = $1 AND stripe_customer_id = $2`,
      [businessId, missingId],
    );
  }

  /**
   * The one business whose Stripe customer `customerId` is, or null (another Stripe customer),
   * and whether Grove has read `subscriptionId` from Stripe since `since`: its state was kept by a
   * read that started after then (`synced_at`, the reading transaction's start).
   * @param subscriptionId null: never read since (the event names no subscription)
   * @param since null: never read since (a job queued before events carried their arrival)
   */
  async customerState(
    customerId: string,
    subscriptionId: string | null,
    since: Date | null,
  ): Promise<{ businessId: string; readSince: boolean } | null> {
    const rows = (await this.dataSource.query(
      `SELECT business_id,
              coalesce(stripe_subscription_id = $2 AND synced_at >= $3, false) AS read_since
         FROM business_billing WHERE stripe_customer_id = $1`,
      [customerId, subscriptionId, since],
    )) as { business_id: string; read_since: boolean }[];
    const [row] = rows;
    return row ? { businessId: row.business_id, readSince: row.read_since } : null;
  }

  /**
   * Locks the business's row until `manager`'s transaction ends: one Stripe event of a business
   * is applied at a time (across instances), so a state read from Stripe later is written later.
   * @returns false when the business has no row (no Stripe customer yet)
   */
  async lock({ businessId }: BusinessScope, manager: EntityManager): Promise<boolean> {
    const rows = (await manager.query(
      `SELECT 1 FROM business_billing WHERE business_id = $1 FOR UPDATE`,
      [businessId],
    )) as unknown[];
    return rows.length === 1;
  }

  /**
   * Keeps the subscription's state as Stripe answers it now, inside `manager`'s transaction
   * (after {@link lock}). A renewal that starts failing records when (`payment_failed_at`, kept
   * while it keeps failing); a paying or ended subscription clears it.
   * @returns true when this call saw the payment start failing (the owner is emailed once)
   */
  async applySubscription(
    { businessId }: BusinessScope,
    manager: EntityManager,
    snapshot: SubscriptionSnapshot,
  ): Promise<boolean> {
    const failing = FAILING_STATUSES.includes(snapshot.status);
    // An UPDATE answers [rows, count] through TypeORM.
    const [rows] = (await manager.query(
      `WITH before AS (
         SELECT payment_failed_at FROM business_billing WHERE business_id = $1
       )
       UPDATE business_billing
          SET stripe_subscription_id = $2, subscription_status = $3, current_period_end = $4,
              amount_cents = $5, currency = $6, cancel_at_period_end = $7,
              subscription_ended_at = $8,
              payment_failed_at = CASE WHEN $9 THEN coalesce(payment_failed_at, now()) END,
              synced_at = now()
        WHERE business_id = $1
        RETURNING (SELECT payment_failed_at IS NULL FROM before) AND $9 AS started_failing`,
      [
        businessId,
        snapshot.id,
        snapshot.status,
        snapshot.currentPeriodEnd,
        snapshot.amountCents,
        snapshot.currency,
        snapshot.cancelAtPeriodEnd,
        snapshot.endedAt,
        failing,
      ],
    )) as [{ started_failing: boolean }[], number];
    return rows[0]?.started_failing ?? false;
  }

  /**
   * Records a Stripe event's id inside `manager`'s transaction.
   * @returns when it was received (the database's clock, as `synced_at`'s), or null when it was
   *   already received (a duplicate delivery: nothing to do)
   */
  async recordEvent(manager: EntityManager, id: string, type: string): Promise<Date | null> {
    const rows = (await manager.query(
      `INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING
       RETURNING received_at`,
      [id, type],
    )) as { received_at: Date }[];
    return rows[0]?.received_at ?? null;
  }
}
