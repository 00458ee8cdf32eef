import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rewards a referrer is owed and the cap on rewarded branches (issue 33 item 2,
 * docs/product.md#referrer-reward, docs/decisions/referrer-reward.md):
 * - `businesses.reward_max_branches` (1–1,000, NULL for none): the most branches of one referrer
 *   rewarded a year; the ongoing discount counts at most that many branches
 *   (membership/pricing/price.sql.ts `rewardedBranches`), the other kinds owe at most that many
 *   rewards per referrer per calendar year (UTC);
 * - `referrer_rewards_owed`: one row per branch that started counting while the business's reward
 *   was a one-off credit, a free period or a gift, with that reward as it was then (`reward`, the
 *   stored `referrer_reward`), `capped` when the referrer had reached the yearly number, and
 *   `honoured_at` once the owner marked it honoured. UNIQUE (branch_id): a branch that stops and
 *   starts counting again, or a replayed sync or webhook, owes nothing twice;
 * - the trigger `members_referrer_reward_owed` writes the row whenever a branch starts counting
 *   (`branch_counting_since` set on insert, or set from NULL on update), whichever path set it
 *   (an approval, the counting rule's refresh, a Mindbody sync, a Stripe webhook, an import).
 */
export class ReferrerRewardsOwed1795602000000 implements MigrationInterface {
  name = 'ReferrerRewardsOwed1795602000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses ADD COLUMN reward_max_branches integer NULL
         CONSTRAINT businesses_reward_max_branches CHECK (reward_max_branches BETWEEN 1 AND 1000)`,
    );
    await queryRunner.query(
      `CREATE TABLE referrer_rewards_owed (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        referrer_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        branch_id uuid NOT NULL UNIQUE REFERENCES members(id) ON DELETE CASCADE,
        reward jsonb NOT NULL CHECK (jsonb_typeof(reward) = 'object'),
        capped boolean NOT NULL DEFAULT false,
        counted_at timestamptz NOT NULL DEFAULT now(),
        honoured_at timestamptz NULL
      )`,
    );
    await queryRunner.query(
      `CREATE INDEX referrer_rewards_owed_business_idx ON referrer_rewards_owed (business_id, counted_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX referrer_rewards_owed_referrer_idx ON referrer_rewards_owed (referrer_id, counted_at)`,
    );
    await queryRunner.query(
      `CREATE FUNCTION members_referrer_reward_owed() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         reward jsonb;
         max_branches integer;
       BEGIN
         IF NEW.referred_by_id IS NULL OR NEW.mindbody_cancelled_at IS NOT NULL
            OR NEW.mindbody_suspended_at IS NOT NULL THEN
           RETURN NULL;
         END IF;
         SELECT b.referrer_reward, b.reward_max_branches INTO reward, max_branches
           FROM businesses b WHERE b.id = NEW.business_id;
         IF reward IS NULL OR reward->>'kind' = 'discount' THEN
           RETURN NULL;
         END IF;
         INSERT INTO referrer_rewards_owed (business_id, referrer_id, branch_id, reward, capped)
         VALUES (NEW.business_id, NEW.referred_by_id, NEW.id, reward,
           max_branches IS NOT NULL AND (SELECT count(*) FROM referrer_rewards_owed o
             WHERE o.referrer_id = NEW.referred_by_id AND NOT o.capped
               AND o.counted_at >= date_trunc('year', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') >= max_branches)
         ON CONFLICT (branch_id) DO NOTHING;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER members_referrer_reward_owed_insert AFTER INSERT ON members
         FOR EACH ROW WHEN (NEW.branch_counting_since IS NOT NULL)
         EXECUTE FUNCTION members_referrer_reward_owed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER members_referrer_reward_owed_update AFTER UPDATE ON members
         FOR EACH ROW WHEN (OLD.branch_counting_since IS NULL AND NEW.branch_counting_since IS NOT NULL)
         EXECUTE FUNCTION members_referrer_reward_owed()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER members_referrer_reward_owed_update ON members`);
    await queryRunner.query(`DROP TRIGGER members_referrer_reward_owed_insert ON members`);
    await queryRunner.query(`DROP FUNCTION members_referrer_reward_owed()`);
    await queryRunner.query(`DROP TABLE referrer_rewards_owed`);
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN reward_max_branches`);
  }
}
