import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Join page visits counted once per visitor per link per UTC day (issue 24 part 6): before, every
 * `GET /referral/:code` added one to `join_page_visits`, so 50 reloads were 50 visits in the
 * funnel.
 *
 * - `join_page_visitors`: who opened a link's join page today, as a keyed digest only
 *   (HMAC-SHA-256 of the day, the code and the client address under a key derived from
 *   JWT_SECRET: `FraudSignalsService.joinPageVisitor`), never the address. One row per link, day
 *   and digest; the statement that counts a visit adds the row and counts only when it is new,
 *   and deletes the link's rows of earlier days, so nothing outlives its day.
 */
export class JoinPageVisitors1795560100000 implements MigrationInterface {
  name = 'JoinPageVisitors1795560100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE join_page_visitors (
        referral_link_id uuid NOT NULL REFERENCES referral_links(id) ON DELETE CASCADE,
        day date NOT NULL,
        visitor_digest bytea NOT NULL,
        PRIMARY KEY (referral_link_id, day, visitor_digest)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE join_page_visitors`);
  }
}
