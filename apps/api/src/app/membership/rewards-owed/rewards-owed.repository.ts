import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { businessLocale, type BusinessLocale, type ReferrerRewardFields } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';

/** A `referrer_rewards_owed` row with both members' names. */
interface OwedSqlRow {
  id: string;
  referrer_id: string;
  referrer_name: string;
  branch_id: string;
  branch_name: string;
  reward: ReferrerRewardFields;
  capped: boolean;
  counted_at: Date;
  honoured_at: Date | null;
}

/** One reward owed to a referrer (`referrer_rewards_owed`), as read for the owner. */
export interface RewardOwedRecord {
  id: string;
  referrerId: string;
  referrerName: string;
  branchId: string;
  branchName: string;
  /** The business's reward (kind and fields) when the branch started counting. */
  reward: ReferrerRewardFields;
  capped: boolean;
  countedAt: Date;
  honouredAt: Date | null;
}

const toRecord = (row: OwedSqlRow): RewardOwedRecord => ({
  id: row.id,
  referrerId: row.referrer_id,
  referrerName: row.referrer_name,
  branchId: row.branch_id,
  branchName: row.branch_name,
  reward: row.reward,
  capped: row.capped,
  countedAt: row.counted_at,
  honouredAt: row.honoured_at,
});

const OWED_FROM = (rows: string) => `${rows} o
  JOIN members r ON r.id = o.referrer_id AND r.business_id = o.business_id
  JOIN members b ON b.id = o.branch_id AND b.business_id = o.business_id`;

const OWED_COLUMNS = `o.id, o.referrer_id, r.name AS referrer_name, o.branch_id, b.name AS branch_name,
  o.reward, o.capped, o.counted_at, o.honoured_at`;

/** Most rewards one list answers (those to honour first). */
export const REWARDS_OWED_LIMIT = 200;

/**
 * The rewards owed to referrers (`referrer_rewards_owed`, written by the trigger of migration
 * ReferrerRewardsOwed when a branch starts counting; docs/product.md#referrer-reward). TENANCY:
 * every method takes the `BusinessScope` first and reads or writes only its business.
 */
@Injectable()
export class RewardsOwedRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The scope's locale (for the rewards' wording). */
  async locale({ businessId }: BusinessScope): Promise<BusinessLocale> {
    const rows: { country: string; time_zone: string | null }[] = await this.dataSource.query(
      `SELECT country, time_zone FROM businesses WHERE id = $1`,
      [businessId],
    );
    return businessLocale(rows[0]?.country ?? 'AU', rows[0]?.time_zone ?? null);
  }

  /**
   * The scope's rewards owed: those still to honour first (oldest first), then the capped ones,
   * then the honoured ones (latest first), at most `REWARDS_OWED_LIMIT`.
   */
  async list({ businessId }: BusinessScope): Promise<RewardOwedRecord[]> {
    const rows: OwedSqlRow[] = await this.dataSource.query(
      `SELECT ${OWED_COLUMNS} FROM ${OWED_FROM('referrer_rewards_owed')}
        WHERE o.business_id = $1
        ORDER BY o.honoured_at IS NOT NULL, o.capped, o.honoured_at DESC, o.counted_at, o.id
        LIMIT ${REWARDS_OWED_LIMIT}`,
      [businessId],
    );
    return rows.map(toRecord);
  }

  /**
   * Marks a reward of the scope's business honoured (now) in `manager`'s transaction, unless it
   * is capped or already honoured.
   * @returns the reward as it is after, and whether this call honoured it; null when the business
   *   has no such reward
   */
  async markHonoured(
    { businessId }: BusinessScope,
    manager: EntityManager,
    id: string,
  ): Promise<{ record: RewardOwedRecord; honoured: boolean } | null> {
    const marked: { id: string }[] = await manager.query(
      `WITH marked AS (
         UPDATE referrer_rewards_owed SET honoured_at = now()
          WHERE business_id = $1 AND id = $2 AND honoured_at IS NULL AND NOT capped
          RETURNING id)
       SELECT id FROM marked`,
      [businessId, id],
    );
    const rows: OwedSqlRow[] = await manager.query(
      `SELECT ${OWED_COLUMNS} FROM ${OWED_FROM('referrer_rewards_owed')}
        WHERE o.business_id = $1 AND o.id = $2`,
      [businessId, id],
    );
    return rows[0] ? { record: toRecord(rows[0]), honoured: marked.length > 0 } : null;
  }

  /**
   * The scope's one-off credits Stripe can write: owed (not capped, not honoured, not credited
   * yet) to a referrer with a running subscription on the business's Stripe in the business's
   * currency (a read of issue 32's `stripe_member_subscriptions`). Oldest first, at most
   * `REWARDS_OWED_LIMIT`. Cents.
   */
  async creditsForStripe(
    { businessId }: BusinessScope,
    currency: string,
  ): Promise<
    {
      id: string;
      referrerName: string;
      branchName: string;
      customerId: string;
      amountCents: number;
    }[]
  > {
    const rows: {
      id: string;
      referrer_name: string;
      branch_name: string;
      customer_id: string;
      amount_cents: number;
    }[] = await this.dataSource.query(
      `SELECT o.id, r.name AS referrer_name, b.name AS branch_name,
              s.stripe_customer_id AS customer_id, (o.reward->>'creditCents')::int AS amount_cents
         FROM ${OWED_FROM('referrer_rewards_owed')}
         JOIN stripe_member_subscriptions s
           ON s.business_id = o.business_id AND s.member_id = o.referrer_id AND s.ended_at IS NULL
        WHERE o.business_id = $1 AND o.reward->>'kind' = 'credit' AND NOT o.capped
          AND o.honoured_at IS NULL AND o.stripe_balance_transaction_id IS NULL
          AND upper(s.currency) = $2 AND (o.reward->>'creditCents')::int > 0
        ORDER BY o.counted_at, o.id
        LIMIT ${REWARDS_OWED_LIMIT}`,
      [businessId, currency],
    );
    return rows.map((row) => ({
      id: row.id,
      referrerName: row.referrer_name,
      branchName: row.branch_name,
      customerId: row.customer_id,
      amountCents: row.amount_cents,
    }));
  }

  /** Records the credit Stripe wrote for an owed reward: credited and honoured now. */
  async recordStripeCredit(
    { businessId }: BusinessScope,
    id: string,
    balanceTransactionId: string,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE referrer_rewards_owed
          SET stripe_balance_transaction_id = $3, stripe_credited_at = now(),
              honoured_at = coalesce(honoured_at, now())
        WHERE business_id = $1 AND id = $2`,
      [businessId, id, balanceTransactionId],
    );
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
