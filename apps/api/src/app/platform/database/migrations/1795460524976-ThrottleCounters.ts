import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `throttle_counters`: the request counters of every throttle (login, signup, referral join,
 * contact, leads, support, Mindbody credential checks), shared by all API instances on one
 * database (`common/shared-throttler-storage.ts`). The columns are the ones rate-limiter-flexible's
 * `RateLimiterPostgres` reads and writes (`key` = throttle name + hashed client, `points` = hits in
 * the window, `expire` = epoch milliseconds when the window or block ends); the library is told
 * the table exists instead of creating it. UNLOGGED: counters need no crash safety (a crash forgets
 * them, as a restart forgot the in-memory ones) and skip the write-ahead log on every hit.
 */
export class ThrottleCounters1795460524976 implements MigrationInterface {
  name = 'ThrottleCounters1795460524976';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNLOGGED TABLE throttle_counters (
         key varchar(255) PRIMARY KEY,
         points integer NOT NULL DEFAULT 0,
         expire bigint
       )`,
    );
    // rate-limiter-flexible deletes rows that expired an hour ago every 5 minutes.
    await queryRunner.query(`CREATE INDEX throttle_counters_expire ON throttle_counters (expire)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE throttle_counters`);
  }
}
