import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { businessLocale, type BusinessLocale, type WelcomeOffer } from '@grove/contracts';
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
}

const toGrant = (row: GrantSqlRow): WelcomeOfferGrantRecord => ({
  id: row.id,
  memberId: row.member_id,
  memberName: row.member_name,
  offer: row.offer,
  wording: row.wording,
  grantedAt: row.granted_at,
  honouredAt: row.honoured_at,
});

const GRANT_COLUMNS = `g.id, g.member_id, m.name AS member_name, g.offer, g.wording, g.granted_at, g.honoured_at`;

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
  ): Promise<boolean> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO welcome_offer_grants (business_id, member_id, offer, wording)
       SELECT m.business_id, m.id, $3::jsonb, $4 FROM members m WHERE m.business_id = $1 AND m.id = $2
       ON CONFLICT (member_id) DO NOTHING
       RETURNING id`,
      [businessId, memberId, JSON.stringify(offer), wording],
    );
    return rows.length > 0;
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
   * The offers granted in `[start, end)` with each friend's membership price now (cents), for
   * Analytics' cost (`WelcomeOfferService.costIn`).
   */
  async grantedIn(
    { businessId }: BusinessScope,
    start: Date,
    end: Date,
  ): Promise<{ offer: WelcomeOffer; membershipPriceCents: number }[]> {
    const rows: { offer: WelcomeOffer; membership_price_cents: number }[] =
      await this.dataSource.query(
        `SELECT g.offer, m.membership_price_cents FROM welcome_offer_grants g
           JOIN members m ON m.id = g.member_id AND m.business_id = g.business_id
          WHERE g.business_id = $1 AND g.granted_at >= $2 AND g.granted_at < $3`,
        [businessId, start, end],
      );
    return rows.map((row) => ({
      offer: row.offer,
      membershipPriceCents: row.membership_price_cents,
    }));
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
