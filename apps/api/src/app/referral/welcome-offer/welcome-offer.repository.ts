import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  businessLocale,
  type BusinessLocale,
  type WelcomeOffer,
  type WelcomeOfferInStripe,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';

/** A `welcome_offer_grants` row with its member's name. */
interface GrantSqlRow {
  id: string;
  member_id: string;
  member_name: string;
  offer: WelcomeOffer;
  wording: string;
  granted_at: Date;
  honoured_at: Date | null;
  stripe_state: WelcomeOfferInStripe['state'] | null;
  stripe_subscription_id: string | null;
  stripe_note: string | null;
}

/** One granted welcome offer (`welcome_offer_grants`), as read for the owner. */
export interface WelcomeOfferGrantRecord {
  id: string;
  memberId: string;
  memberName: string;
  offer: WelcomeOffer;
  wording: string;
  grantedAt: Date;
  honouredAt: Date | null;
  stripe: WelcomeOfferInStripe | null;
}

/** A grant to write to the gym's Stripe: its offer and the friend's email. */
export interface StripeGrantTarget {
  id: string;
  memberId: string;
  email: string;
  offer: WelcomeOffer;
  state: WelcomeOfferInStripe['state'];
  /** The business's currency (ISO 4217, upper case): an amount offer's. */
  businessCurrency: string;
}

const toGrant = (row: GrantSqlRow): WelcomeOfferGrantRecord => ({
  id: row.id,
  memberId: row.member_id,
  memberName: row.member_name,
  offer: row.offer,
  wording: row.wording,
  grantedAt: row.granted_at,
  honouredAt: row.honoured_at,
  stripe: row.stripe_state
    ? {
        state: row.stripe_state,
        subscriptionId: row.stripe_subscription_id,
        note: row.stripe_note,
      }
    : null,
});

const GRANT_COLUMNS = `g.id, g.member_id, m.name AS member_name, g.offer, g.wording, g.granted_at, g.honoured_at,
  g.stripe_state, g.stripe_subscription_id, g.stripe_note`;

/** Most grants one list answers (the open ones first). */
export const WELCOME_OFFER_GRANTS_LIMIT = 200;

/**
 * The business's welcome offer (`businesses.welcome_offer`, NULL for none) and the offers granted
 * to approved friends (`welcome_offer_grants`; migration WelcomeOffer,
 * docs/product.md#welcome-offer). TENANCY: every method takes the `BusinessScope` first and
 * reads or writes only its business.
 */
@Injectable()
export class WelcomeOfferRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The scope's offer as stored (null: none, or no such business) and the business's locale (for
   * its wording), read with `manager` when given (inside an approval's transaction).
   */
  async get(
    { businessId }: BusinessScope,
    manager?: EntityManager,
  ): Promise<{ offer: WelcomeOffer | null; locale: BusinessLocale }> {
    const rows: {
      welcome_offer: WelcomeOffer | null;
      country: string;
      time_zone: string | null;
    }[] = await (manager ?? this.dataSource.manager).query(
      `SELECT welcome_offer, country, time_zone FROM businesses WHERE id = $1`,
      [businessId],
    );
    const row = rows[0];
    return {
      offer: row?.welcome_offer ?? null,
      locale: businessLocale(row?.country ?? 'AU', row?.time_zone ?? null),
    };
  }

  /**
   * Saves the (validated, normalised) offer in `manager`'s transaction; `none` is stored as NULL.
   * @returns it as stored
   */
  async save(
    { businessId }: BusinessScope,
    manager: EntityManager,
    offer: WelcomeOffer,
  ): Promise<WelcomeOffer | null> {
    const rows: { welcome_offer: WelcomeOffer | null }[] = await manager.query(
      `WITH saved AS (UPDATE businesses SET welcome_offer = $2::jsonb WHERE id = $1 RETURNING welcome_offer)
       SELECT welcome_offer FROM saved`,
      [businessId, offer.kind === 'none' ? null : JSON.stringify(offer)],
    );
    return rows[0]?.welcome_offer ?? null;
  }

  /**
   * Records the offer granted to an approved friend (`memberId`, of the scope's business), inside
   * the approval's transaction; a member granted once keeps their first grant.
   * @returns true when recorded
   */
  async grant(
    { businessId }: BusinessScope,
    manager: EntityManager,
    memberId: string,
    offer: WelcomeOffer,
    wording: string,
    costCents: (membershipPriceCents: number) => number | null,
  ): Promise<string | null> {
    const members: { membership_price_cents: number }[] = await manager.query(
      `SELECT membership_price_cents FROM members WHERE business_id = $1 AND id = $2`,
      [businessId, memberId],
    );
    if (!members[0]) return null;
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO welcome_offer_grants (business_id, member_id, offer, wording, cost_cents)
       SELECT m.business_id, m.id, $3::jsonb, $4, $5 FROM members m WHERE m.business_id = $1 AND m.id = $2
       ON CONFLICT (member_id) DO NOTHING
       RETURNING id`,
      [
        businessId,
        memberId,
        JSON.stringify(offer),
        wording,
        costCents(members[0].membership_price_cents),
      ],
    );
    return rows[0]?.id ?? null;
  }

  /** Marks a grant of the scope's business to be written to its Stripe, in `manager`'s transaction. */
  async markStripePending(
    { businessId }: BusinessScope,
    manager: EntityManager,
    grantId: string,
  ): Promise<void> {
    await manager.query(
      `UPDATE welcome_offer_grants SET stripe_state = 'pending'
        WHERE business_id = $1 AND id = $2 AND stripe_state IS NULL`,
      [businessId, grantId],
    );
  }

  /**
   * A grant of the scope's business to write to Stripe, with the friend's email and the
   * business's currency; null when it is not (or no longer) the scope's, not pending, or the
   * owner already marked it honoured by hand (Stripe then gets nothing).
   */
  async stripeTarget(
    { businessId }: BusinessScope,
    grantId: string,
  ): Promise<StripeGrantTarget | null> {
    const rows: {
      id: string;
      member_id: string;
      email: string;
      offer: WelcomeOffer;
      stripe_state: WelcomeOfferInStripe['state'];
      country: string;
      time_zone: string | null;
    }[] = await this.dataSource.query(
      `SELECT g.id, g.member_id, m.email, g.offer, g.stripe_state, b.country, b.time_zone
         FROM welcome_offer_grants g
         JOIN members m ON m.id = g.member_id AND m.business_id = g.business_id
         JOIN businesses b ON b.id = g.business_id
        WHERE g.business_id = $1 AND g.id = $2 AND g.stripe_state = 'pending' AND g.honoured_at IS NULL`,
      [businessId, grantId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      memberId: row.member_id,
      email: row.email,
      offer: row.offer,
      state: row.stripe_state,
      businessCurrency: businessLocale(row.country, row.time_zone).currency,
    };
  }

  /**
   * Whether the scope's business has its Stripe member billing connected (a read of
   * `stripe_member_integrations`, issue 32's table: the approval dialog says what Stripe gets).
   */
  async stripeConnected({ businessId }: BusinessScope): Promise<boolean> {
    const rows: { connected: boolean }[] = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM stripe_member_integrations WHERE business_id = $1) AS connected`,
      [businessId],
    );
    return rows[0]?.connected === true;
  }

  /** The ids of the scope's grants still waiting for the friend's Stripe subscription. */
  async pendingInStripe({ businessId }: BusinessScope): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM welcome_offer_grants
        WHERE business_id = $1 AND stripe_state = 'pending' AND honoured_at IS NULL
        ORDER BY granted_at LIMIT ${WELCOME_OFFER_GRANTS_LIMIT}`,
      [businessId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Records the coupon written on the friend's subscription: applied (and so honoured) now, its
   * cost recomputed from the subscription's price when given (same currency as the business).
   */
  async recordStripeApplied(
    { businessId }: BusinessScope,
    grantId: string,
    applied: { subscriptionId: string; couponId: string; costCents: number | null },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE welcome_offer_grants
          SET stripe_state = 'applied', stripe_subscription_id = $3, stripe_coupon_id = $4,
              stripe_note = NULL, stripe_applied_at = now(),
              honoured_at = coalesce(honoured_at, now()), cost_cents = coalesce($5, cost_cents)
        WHERE business_id = $1 AND id = $2`,
      [businessId, grantId, applied.subscriptionId, applied.couponId, applied.costCents],
    );
  }

  /** Records why Stripe could not take the offer: listed to honour by hand with `note`. */
  async recordStripeFailed(
    { businessId }: BusinessScope,
    grantId: string,
    note: string,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE welcome_offer_grants SET stripe_state = 'failed', stripe_note = $3
        WHERE business_id = $1 AND id = $2 AND stripe_state = 'pending'`,
      [businessId, grantId, note],
    );
  }

  /**
   * The scope's granted offers: those still to honour first (oldest first), then the honoured
   * ones (latest first), at most `WELCOME_OFFER_GRANTS_LIMIT`.
   */
  async listGrants({ businessId }: BusinessScope): Promise<WelcomeOfferGrantRecord[]> {
    const rows: GrantSqlRow[] = await this.dataSource.query(
      `SELECT ${GRANT_COLUMNS} FROM welcome_offer_grants g
         JOIN members m ON m.id = g.member_id AND m.business_id = g.business_id
        WHERE g.business_id = $1
        ORDER BY g.honoured_at IS NOT NULL, g.honoured_at DESC, g.granted_at, g.id
        LIMIT ${WELCOME_OFFER_GRANTS_LIMIT}`,
      [businessId],
    );
    return rows.map(toGrant);
  }

  /**
   * The offers granted in `[start, end)`, from what was recorded (Analytics,
   * `WelcomeOfferService.costIn`): how many, the sum of their recorded `cost_cents` (business
   * currency) and how many have no cost (text offers, honoured by hand).
   */
  async grantedIn(
    { businessId }: BusinessScope,
    start: Date,
    end: Date,
  ): Promise<{ granted: number; costCents: number; byHand: number }> {
    const rows: { granted: number; cost_cents: string | null; by_hand: number }[] =
      await this.dataSource.query(
        `SELECT count(*)::int AS granted, sum(cost_cents) AS cost_cents,
                count(*) FILTER (WHERE cost_cents IS NULL)::int AS by_hand
           FROM welcome_offer_grants
          WHERE business_id = $1 AND granted_at >= $2 AND granted_at < $3`,
        [businessId, start, end],
      );
    const row = rows[0];
    return {
      granted: row?.granted ?? 0,
      costCents: Number(row?.cost_cents ?? 0),
      byHand: row?.by_hand ?? 0,
    };
  }

  /**
   * Marks a grant of the scope's business honoured (now; one already honoured keeps its time).
   * @returns the grant, or null when the business has no such grant
   */
  async markHonoured(
    { businessId }: BusinessScope,
    grantId: string,
  ): Promise<WelcomeOfferGrantRecord | null> {
    const rows: GrantSqlRow[] = await this.dataSource.query(
      `WITH marked AS (
         UPDATE welcome_offer_grants SET honoured_at = coalesce(honoured_at, now())
          WHERE business_id = $1 AND id = $2
          RETURNING *
       )
       SELECT ${GRANT_COLUMNS} FROM marked g
         JOIN members m ON m.id = g.member_id AND m.business_id = g.business_id`,
      [businessId, grantId],
    );
    return rows[0] ? toGrant(rows[0]) : null;
  }
}
