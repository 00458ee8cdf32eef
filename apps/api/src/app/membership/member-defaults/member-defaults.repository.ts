import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { MemberDefaults } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';

interface DefaultsSqlRow {
  default_discount_cents: number | null;
  default_membership_price_cents: number | null;
}

const toDefaults = (row?: DefaultsSqlRow): MemberDefaults => ({
  discountCents: row?.default_discount_cents ?? null,
  membershipPriceCents: row?.default_membership_price_cents ?? null,
});

/**
 * The business's member defaults (migration MemberDefaults: `businesses.default_discount_cents`,
 * `default_membership_price_cents`; docs/product.md#member-defaults). TENANCY: every method takes
 * the `BusinessScope` first and reads or writes only its business.
 */
@Injectable()
export class MemberDefaultsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The scope's defaults in cents (both null when unset or the business is gone); with `manager`,
   * read in its transaction.
   */
  async get({ businessId }: BusinessScope, manager?: EntityManager): Promise<MemberDefaults> {
    const rows: DefaultsSqlRow[] = await (manager ?? this.dataSource).query(
      `SELECT default_discount_cents, default_membership_price_cents FROM businesses WHERE id = $1`,
      [businessId],
    );
    return toDefaults(rows[0]);
  }

  /** Saves both defaults (null clears one) in `manager`'s transaction. @returns them as stored */
  async save(
    { businessId }: BusinessScope,
    manager: EntityManager,
    defaults: MemberDefaults,
  ): Promise<MemberDefaults> {
    const rows: DefaultsSqlRow[] = await manager.query(
      `WITH saved AS (
         UPDATE businesses SET default_discount_cents = $2, default_membership_price_cents = $3
         WHERE id = $1 RETURNING default_discount_cents, default_membership_price_cents)
       SELECT default_discount_cents, default_membership_price_cents FROM saved`,
      [businessId, defaults.discountCents, defaults.membershipPriceCents],
    );
    return toDefaults(rows[0]);
  }
}
