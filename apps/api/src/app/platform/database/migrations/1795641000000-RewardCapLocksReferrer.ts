import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trigger function of migration RewardYearInTimeZone, with or without the referrer's lock.
 * With it, a business with a cap on rewarded friends locks the referrer's `members` row (FOR NO
 * KEY UPDATE: foreign-key checks, which take KEY SHARE, are not held up) before counting the
 * referrer's rewards this year. Under READ COMMITTED each statement of a PL/pgSQL function takes
 * a new snapshot, so a second branch of the same referrer waits for the first one's transaction
 * and then counts its reward.
 */
const rewardOwedFunction = (lockReferrer: boolean) => `
  CREATE OR REPLACE FUNCTION members_referrer_reward_owed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    reward jsonb;
    max_branches integer;
    year_zone text;
  BEGIN
    IF NEW.referred_by_id IS NULL OR NEW.mindbody_cancelled_at IS NOT NULL
       OR NEW.mindbody_suspended_at IS NOT NULL THEN
      RETURN NULL;
    END IF;
    SELECT b.referrer_reward, b.reward_max_branches,
        CASE WHEN b.reward_max_branches IS NULL THEN 'UTC' ELSE business_time_zone(b.country, b.time_zone) END
      INTO reward, max_branches, year_zone
      FROM businesses b WHERE b.id = NEW.business_id;
    IF reward IS NULL OR reward->>'kind' = 'discount' THEN
      RETURN NULL;
    END IF;
    ${
      lockReferrer
        ? `IF max_branches IS NOT NULL THEN
      PERFORM 1 FROM members r WHERE r.id = NEW.referred_by_id FOR NO KEY UPDATE;
    END IF;`
        : ''
    }
    INSERT INTO referrer_rewards_owed (business_id, referrer_id, branch_id, reward, capped)
    VALUES (NEW.business_id, NEW.referred_by_id, NEW.id, reward,
      max_branches IS NOT NULL AND (SELECT count(*) FROM referrer_rewards_owed o
             WHERE o.referrer_id = NEW.referred_by_id AND NOT o.capped
               AND o.counted_at >= date_trunc('year', now() AT TIME ZONE year_zone) AT TIME ZONE year_zone) >= max_branches)
    ON CONFLICT (branch_id) DO NOTHING;
    RETURN NULL;
  END $$`;

/**
 * Two branches of one referrer that start counting in two concurrent transactions could both be
 * owed at the cap on rewarded friends (issue 33 item 2, docs/decisions/referrer-reward.md: "the
 * count does not lock"). The trigger `members_referrer_reward_owed` now locks the referrer's row
 * first at a business with a cap, so the second waits for the first and is written `capped`.
 * `down()` restores the function of RewardYearInTimeZone.
 */
export class RewardCapLocksReferrer1795641000000 implements MigrationInterface {
  name = 'RewardCapLocksReferrer1795641000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(rewardOwedFunction(true));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(rewardOwedFunction(false));
  }
}
