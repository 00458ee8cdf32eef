import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DEFAULT_REFERRER_REWARD,
  type ReferrerReward,
  type ReferrerRewardKind,
  type RewardPriceRule,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import {
  businessTimeZone,
  countingBranch,
  rewardedThisYear,
  rewardRuleColumn,
} from '../pricing/price.sql';

/** What the rewards a member has left under the cap depend on (`ReferrerRewardRepository.rewardsLeftFacts`). */
export interface RewardsLeftFacts {
  /** The business's reward kind. */
  kind: ReferrerRewardKind;
  /** The member's price follows Mindbody's discounts (their page words the Mindbody discount). */
  managed: boolean;
  /** The member's branches that count now (`countingBranch`). */
  countingBranches: number;
  /** The business's price rule (`rewardRuleColumn`), its `maxBranches` the cap on rewarded friends. */
  rule: RewardPriceRule;
  /** The member's rewards owed this year in the business's zone, not capped; 0 without a cap. */
  rewardedThisYear: number;
}

/** The reward's kind and fields as `businesses.referrer_reward` stores them (no cap). */
type StoredReward = Omit<ReferrerReward, 'capPercent' | 'yearlyCapCents' | 'maxBranchesPerYear'>;

interface RewardSqlRow {
  referrer_reward: StoredReward | null;
  reward_cap_percent: number;
  reward_yearly_cap_cents: number | null;
  reward_max_branches: number | null;
}

const toReward = (row?: RewardSqlRow): ReferrerReward =>
  row
    ? {
        ...DEFAULT_REFERRER_REWARD,
        ...(row.referrer_reward ?? {}),
        capPercent: row.reward_cap_percent,
        yearlyCapCents: row.reward_yearly_cap_cents,
        maxBranchesPerYear: row.reward_max_branches,
      }
    : DEFAULT_REFERRER_REWARD;

const COLUMNS = 'referrer_reward, reward_cap_percent, reward_yearly_cap_cents, reward_max_branches';

/**
 * The business's referrer reward and cap (migration ReferrerReward: `businesses.referrer_reward`,
 * NULL for the ongoing discount; `reward_cap_percent`; `reward_yearly_cap_cents`; migration
 * ReferrerRewardsOwed: `reward_max_branches`;
 * docs/product.md#referrer-reward). TENANCY: every method takes the `BusinessScope` first and
 * reads or writes only its business.
 */
@Injectable()
export class ReferrerRewardRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The scope's reward (the default when unset or the business is gone), in `manager`'s transaction when given. */
  async get({ businessId }: BusinessScope, manager?: EntityManager): Promise<ReferrerReward> {
    const rows: RewardSqlRow[] = await (manager ?? this.dataSource).query(
      `SELECT ${COLUMNS} FROM businesses WHERE id = $1`,
      [businessId],
    );
    return toReward(rows[0]);
  }

  /**
   * What the rewards member `memberId` has left under the cap depend on, in ONE statement: the
   * reward's kind, whether Mindbody manages the member, their counting branches, the price rule
   * and (only with a cap) their rewards owed this year in the business's time zone
   * (`rewardedThisYear`). Null when the member is not the business's.
   */
  async rewardsLeftFacts(
    { businessId }: BusinessScope,
    memberId: string,
  ): Promise<RewardsLeftFacts | null> {
    const rows: {
      kind: ReferrerRewardKind | null;
      managed: boolean;
      counting_branches: number;
      reward_rule: RewardPriceRule;
      rewarded: number;
    }[] = await this.dataSource.query(
      `SELECT b.referrer_reward->>'kind' AS kind, m.mindbody_client_id IS NOT NULL AS managed,
              (SELECT count(*)::int FROM members r
                WHERE r.business_id = m.business_id AND r.referred_by_id = m.id
                  AND ${countingBranch('r')}) AS counting_branches,
              ${rewardRuleColumn('m')},
              CASE WHEN b.reward_max_branches IS NULL THEN 0
                ELSE ${rewardedThisYear('m.id', businessTimeZone('b'))} END AS rewarded
         FROM members m JOIN businesses b ON b.id = m.business_id
        WHERE m.business_id = $1 AND m.id = $2`,
      [businessId, memberId],
    );
    const row = rows[0];
    return row
      ? {
          kind: row.kind ?? 'discount',
          managed: row.managed,
          countingBranches: row.counting_branches,
          rule: row.reward_rule,
          rewardedThisYear: row.rewarded,
        }
      : null;
  }

  /**
   * Saves a validated, normalised reward in `manager`'s transaction (the `discount` kind as NULL)
   * and locks the business's members (by id), so the ledger lines written next in the same
   * transaction start from each member's last line. @returns the reward as stored and the member ids
   */
  async save(
    { businessId }: BusinessScope,
    manager: EntityManager,
    reward: ReferrerReward,
  ): Promise<{ reward: ReferrerReward; memberIds: string[] }> {
    const { capPercent, yearlyCapCents, maxBranchesPerYear, ...stored } = reward;
    const rows: RewardSqlRow[] = await manager.query(
      `WITH saved AS (
         UPDATE businesses SET referrer_reward = $2::jsonb, reward_cap_percent = $3, reward_yearly_cap_cents = $4,
           reward_max_branches = $5
         WHERE id = $1 RETURNING ${COLUMNS})
       SELECT ${COLUMNS} FROM saved`,
      [
        businessId,
        stored.kind === 'discount' ? null : JSON.stringify(stored),
        capPercent,
        yearlyCapCents,
        maxBranchesPerYear,
      ],
    );
    const members: { id: string }[] = await manager.query(
      `SELECT id FROM members WHERE business_id = $1 ORDER BY id FOR UPDATE`,
      [businessId],
    );
    return { reward: toReward(rows[0]), memberIds: members.map((member) => member.id) };
  }
}
