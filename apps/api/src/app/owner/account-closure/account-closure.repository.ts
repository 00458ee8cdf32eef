import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';

/** The owner asking, as the closure needs them. */
export interface ClosingOwner {
  email: string;
  firstName: string;
  passwordHash: string;
  businessName: string;
  country: string;
  timeZone: string | null;
  closingAt: Date | null;
}

/**
 * The closure of a business (issue 34 item 6, docs/product.md#data-rights): `businesses.closing_at`
 * and, once it has passed, the deletion of the business with everything it owns (every table's
 * `business_id` is `ON DELETE CASCADE`). Every method takes the `BusinessScope` first, except the
 * daily sweep, which deletes by time only.
 */
@Injectable()
export class AccountClosureRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }

  /** The signed-in user of the scope's business with what the closure needs, or null. */
  async owner(scope: BusinessScope, userId: string): Promise<ClosingOwner | null> {
    const rows: {
      email: string;
      first_name: string;
      password_hash: string;
      business_name: string;
      country: string;
      time_zone: string | null;
      closing_at: Date | null;
    }[] = await this.dataSource.query(
      `SELECT u.email, u.first_name, u.password_hash, b.name AS business_name, b.country,
              b.time_zone, b.closing_at
         FROM users u JOIN businesses b ON b.id = u.business_id
        WHERE u.business_id = $1 AND u.id = $2`,
      [scope.businessId, userId],
    );
    const row = rows[0];
    return row
      ? {
          email: row.email,
          firstName: row.first_name,
          passwordHash: row.password_hash,
          businessName: row.business_name,
          country: row.country,
          timeZone: row.time_zone,
          closingAt: row.closing_at,
        }
      : null;
  }

  /** When the scope's business is deleted, or null while it is open. */
  async closingAt(scope: BusinessScope): Promise<Date | null> {
    const rows: { closing_at: Date | null }[] = await this.dataSource.query(
      `SELECT closing_at FROM businesses WHERE id = $1`,
      [scope.businessId],
    );
    return rows[0]?.closing_at ?? null;
  }

  /**
   * Sets (a date) or clears (null) when the business is deleted, only when it changes state.
   * @returns false when it was already closing (set) or not closing (clear)
   */
  async setClosingAt(
    scope: BusinessScope,
    manager: EntityManager,
    closingAt: Date | null,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      closingAt
        ? `WITH changed AS (UPDATE businesses SET closing_at = $2 WHERE id = $1 AND closing_at IS NULL RETURNING id)
           SELECT id FROM changed`
        : `WITH changed AS (UPDATE businesses SET closing_at = NULL WHERE id = $1 AND closing_at IS NOT NULL RETURNING id)
           SELECT id FROM changed`,
      closingAt ? [scope.businessId, closingAt] : [scope.businessId],
    );
    return rows.length > 0;
  }

  /** The business's other staff accounts (every user but `userId`). */
  async otherStaff(
    scope: BusinessScope,
    manager: EntityManager,
    userId: string,
  ): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM users WHERE business_id = $1 AND id <> $2`,
      [scope.businessId, userId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Deletes every business whose closing date has passed, with everything it owns (the
   * foreign keys cascade), one business per statement.
   * @returns the ids deleted
   */
  async deleteClosed(limit: number): Promise<string[]> {
    const due: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM businesses WHERE closing_at <= now() ORDER BY closing_at LIMIT $1`,
      [limit],
    );
    const deleted: string[] = [];
    for (const { id } of due) {
      const rows: unknown[] = await this.dataSource.query(
        `WITH gone AS (DELETE FROM businesses WHERE id = $1 AND closing_at <= now() RETURNING id)
         SELECT id FROM gone`,
        [id],
      );
      if (rows.length > 0) deleted.push(id);
    }
    return deleted;
  }
}
