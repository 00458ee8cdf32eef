import type { MigrationInterface, QueryRunner } from 'typeorm';

const REASONS_BEFORE = `'member_added', 'membership_price_changed', 'discount_changed',
  'branch_added', 'branch_removed', 'branch_counting', 'branch_lapsed',
  'membership_ended', 'mindbody_sync', 'backfill'`;

/**
 * The referrer's reward and its cap (issue 33 item 2, docs/product.md#referrer-reward):
 * - `businesses.referrer_reward`: the reward's kind and its fields as `{ kind, creditCents,
 *   freeCount, freeUnit, giftText }` (contracts' `ReferrerReward` without the cap, checked by the
 *   API), NULL for today's ongoing discount per branch (the default);
 * - `businesses.reward_cap_percent` (1–100, default 100: the $0 floor) and
 *   `reward_yearly_cap_cents` (NULL: none): the cap the price rule reads
 *   (membership/pricing/price.sql.ts `maxReferralDiscount`);
 * - `price_changes.reason` 'reward_changed': a ledger line written because the owner changed it.
 */
export class ReferrerReward1795594000000 implements MigrationInterface {
  name = 'ReferrerReward1795594000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses
         ADD COLUMN referrer_reward jsonb NULL
           CONSTRAINT businesses_referrer_reward_object CHECK (jsonb_typeof(referrer_reward) = 'object'),
         ADD COLUMN reward_cap_percent integer NOT NULL DEFAULT 100
           CONSTRAINT businesses_reward_cap_percent CHECK (reward_cap_percent BETWEEN 1 AND 100),
         ADD COLUMN reward_yearly_cap_cents integer NULL
           CONSTRAINT businesses_reward_yearly_cap CHECK (reward_yearly_cap_cents BETWEEN 1 AND 100000000)`,
    );
    await queryRunner.query(
      `ALTER TABLE price_changes DROP CONSTRAINT price_changes_reason_known,
         ADD CONSTRAINT price_changes_reason_known CHECK (reason IN (${REASONS_BEFORE}, 'reward_changed'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE price_changes SET reason = 'discount_changed' WHERE reason = 'reward_changed'`,
    );
    await queryRunner.query(
      `ALTER TABLE price_changes DROP CONSTRAINT price_changes_reason_known,
         ADD CONSTRAINT price_changes_reason_known CHECK (reason IN (${REASONS_BEFORE}))`,
    );
    await queryRunner.query(
      `ALTER TABLE businesses DROP COLUMN referrer_reward, DROP COLUMN reward_cap_percent,
         DROP COLUMN reward_yearly_cap_cents`,
    );
  }
}
