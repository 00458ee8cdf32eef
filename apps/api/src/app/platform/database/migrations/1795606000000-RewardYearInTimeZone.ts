import type { MigrationInterface, QueryRunner } from 'typeorm';
import { countryOptions, defaultTimeZone } from '@grove/contracts';

/** SQL text literal of `value` (quotes doubled). */
const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/**
 * The trigger's count of a referrer's rewards this year, in the business's time zone `zone`
 * (`date_trunc` on the local time, back to an instant): the SQL of `rewardedThisYear`
 * (membership/pricing/price.sql.ts) as it was when this migration was written.
 */
const REWARDED_THIS_YEAR = (zone: string) => `(SELECT count(*) FROM referrer_rewards_owed o
             WHERE o.referrer_id = NEW.referred_by_id AND NOT o.capped
               AND o.counted_at >= date_trunc('year', now() AT TIME ZONE ${zone}) AT TIME ZONE ${zone})`;

/** The trigger function of migration ReferrerRewardsOwed, with the year's zone as SQL. */
const ownedFunction = (zoneColumn: string, zone: string) => `
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
    SELECT b.referrer_reward, b.reward_max_branches, ${zoneColumn} INTO reward, max_branches, year_zone
      FROM businesses b WHERE b.id = NEW.business_id;
    IF reward IS NULL OR reward->>'kind' = 'discount' THEN
      RETURN NULL;
    END IF;
    INSERT INTO referrer_rewards_owed (business_id, referrer_id, branch_id, reward, capped)
    VALUES (NEW.business_id, NEW.referred_by_id, NEW.id, reward,
      max_branches IS NOT NULL AND ${REWARDED_THIS_YEAR(zone)} >= max_branches)
    ON CONFLICT (branch_id) DO NOTHING;
    RETURN NULL;
  END $$`;

/**
 * The cap on rewarded friends counts the gym's year, not the UTC year (issue 33 item 2,
 * docs/product.md#referrer-reward, docs/decisions/referrer-reward.md):
 * - `business_time_zone(country, time_zone)`: the business's IANA time zone as contracts'
 *   `businessLocale(country, timeZone).timeZone` resolves it — the stored `time_zone` when
 *   PostgreSQL knows it, else the country's default zone (`defaultTimeZone`, written into the
 *   function for every country `countryOptions` lists when this migration runs), else 'UTC'. It
 *   never fails: an unknown zone is caught, so no member write fails on a business's zone (the
 *   caught block writes nothing, so it takes no subtransaction id, even in a 10,000-row import).
 *   price-parity.integration-spec.ts checks it against `businessLocale` for every country;
 * - the trigger `members_referrer_reward_owed` counts the referrer's rewards (not capped) since
 *   1 January 00:00 in that zone, so a friend who counts at 23:30 on 31 December at a gym in
 *   Honolulu (09:30 on 1 January UTC) is the old year's.
 * `down()` restores the UTC year and drops the function.
 */
export class RewardYearInTimeZone1795606000000 implements MigrationInterface {
  name = 'RewardYearInTimeZone1795606000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const defaults = countryOptions()
      .map(({ code }) => `WHEN ${literal(code)} THEN ${literal(defaultTimeZone(code))}`)
      .join('\n        ');
    await queryRunner.query(
      `CREATE FUNCTION business_time_zone(country text, time_zone text) RETURNS text
         LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
       DECLARE
         candidate text;
       BEGIN
         FOREACH candidate IN ARRAY ARRAY[time_zone, CASE country
        ${defaults}
        END] LOOP
           CONTINUE WHEN candidate IS NULL;
           BEGIN
             PERFORM now() AT TIME ZONE candidate;
             RETURN candidate;
           EXCEPTION WHEN invalid_parameter_value THEN
             NULL; -- not a zone PostgreSQL knows: the next one
           END;
         END LOOP;
         RETURN 'UTC';
       END $$`,
    );
    await queryRunner.query(
      ownedFunction(
        // Only a business with a cap needs its zone (a gym without one owes every reward).
        `CASE WHEN b.reward_max_branches IS NULL THEN 'UTC' ELSE business_time_zone(b.country, b.time_zone) END`,
        'year_zone',
      ),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ownedFunction(`'UTC'`, `'UTC'`));
    await queryRunner.query(`DROP FUNCTION business_time_zone(text, text)`);
  }
}
