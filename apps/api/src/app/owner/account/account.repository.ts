import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import { businessLocale, type AccountDetails, type UpdateAccountRequest } from '@grove/contracts';

interface AccountSqlRow {
  first_name: string;
  last_name: string;
  email: string;
  business_name: string;
  country: string;
  time_zone: string | null;
  phone: string;
  website: string;
}

/**
 * The signed-in owner's row in `users` and their business in `businesses` (where signup stores
 * the name, country, time zone, phone and website). TENANCY: every method takes the session's `BusinessScope` first and
 * the user id, and every statement filters on both (the `businesses` row by the scope's id).
 */
@Injectable()
export class AccountRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The owner's details, or null when the user is not (or no longer) of that business. */
  async find(
    scope: BusinessScope,
    userId: string,
    manager?: EntityManager,
  ): Promise<AccountDetails | null> {
    const rows = (await (manager ?? this.dataSource).query(
      `SELECT u.first_name, u.last_name, u.email, b.name AS business_name, b.country, b.time_zone, b.phone, b.website
       FROM users u JOIN businesses b ON b.id = u.business_id
       WHERE u.id = $1 AND u.business_id = $2`,
      [userId, scope.businessId],
    )) as AccountSqlRow[];
    const row = rows[0];
    return row
      ? {
          firstName: row.first_name,
          lastName: row.last_name,
          email: row.email,
          businessName: row.business_name,
          country: row.country,
          timeZone: businessLocale(row.country, row.time_zone).timeZone,
          phoneNumber: row.phone,
          website: row.website,
        }
      : null;
  }

  /**
   * Applies the given (already validated and trimmed) fields in `manager`'s transaction. A new
   * country sent without a time zone resets the time zone to NULL (the new country's main zone).
   */
  async update(
    scope: BusinessScope,
    manager: EntityManager,
    userId: string,
    patch: UpdateAccountRequest,
  ): Promise<void> {
    if (patch.firstName !== undefined || patch.lastName !== undefined) {
      await manager.query(
        `UPDATE users SET first_name = COALESCE($3, first_name), last_name = COALESCE($4, last_name)
         WHERE id = $1 AND business_id = $2`,
        [userId, scope.businessId, patch.firstName ?? null, patch.lastName ?? null],
      );
    }
    if (
      patch.businessName !== undefined ||
      patch.country !== undefined ||
      patch.timeZone !== undefined ||
      patch.phoneNumber !== undefined ||
      patch.website !== undefined
    ) {
      await manager.query(
        `UPDATE businesses SET name = COALESCE($2, name), phone = COALESCE($3, phone),
                website = COALESCE($4, website), country = COALESCE($5, country),
                time_zone = CASE WHEN $6::text IS NOT NULL THEN $6::text
                                 WHEN $5::text IS NOT NULL THEN NULL ELSE time_zone END
         WHERE id = $1`,
        [
          scope.businessId,
          patch.businessName ?? null,
          patch.phoneNumber ?? null,
          patch.website ?? null,
          patch.country ?? null,
          patch.timeZone ?? null,
        ],
      );
    }
  }

  /** The owner's argon2id hash, or null when the user is not of that business. */
  async passwordHash(scope: BusinessScope, userId: string): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `SELECT password_hash FROM users WHERE id = $1 AND business_id = $2`,
      [userId, scope.businessId],
    )) as { password_hash: string }[];
    return rows[0]?.password_hash ?? null;
  }

  /** Replaces the owner's password hash with one of a password they chose, inside `manager`'s transaction. */
  async setPasswordHash(
    scope: BusinessScope,
    manager: EntityManager,
    userId: string,
    passwordHash: string,
  ): Promise<void> {
    await manager.query(
      `UPDATE users SET password_hash = $3, password_chosen = true WHERE id = $1 AND business_id = $2`,
      [userId, scope.businessId, passwordHash],
    );
  }

  /**
   * Sets the first password the person chooses, inside `manager`'s transaction, only while the
   * account has none of their choosing (one that joined with a passkey): of two concurrent
   * 'Set a password' one wins.
   * @returns false when the account has a chosen password already (or is not the business's)
   */
  async setFirstPassword(
    scope: BusinessScope,
    manager: EntityManager,
    userId: string,
    passwordHash: string,
  ): Promise<boolean> {
    const rows = (await manager.query(
      `WITH set AS (
         UPDATE users SET password_hash = $3, password_chosen = true
          WHERE id = $1 AND business_id = $2 AND NOT password_chosen
          RETURNING id)
       SELECT id FROM set`,
      [userId, scope.businessId, passwordHash],
    )) as { id: string }[];
    return rows.length > 0;
  }

  /** Runs `work` in one transaction (`runTransaction`: it may run twice on a conflict). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
