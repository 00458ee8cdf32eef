import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fraud signals on referral joins (issue 15 part 4): the owner sees why a join looks suspicious,
 * never a silent drop.
 *
 * - `prospects.flags`: the signals of a queued prospect (a sorted set of reason codes, e.g.
 *   'disposable_email', 'join_burst'); the owner still approves or removes as before. Joins that
 *   cannot be queued at all (a member's email, the referrer's own) stay in `join_flags`.
 * - `former_members`: one row per business and email key of a member who left (their tree was
 *   removed), so a later join with that email is flagged 'former_member'. Only a SHA-256 digest of
 *   `business id ':' email key` is kept (no name, no address), written by a statement-level
 *   trigger on `members` whatever removes the row; a business being deleted records nothing.
 * - `member_page_opens`: the member page (issue 15 part 1) opened from a client address, kept as
 *   an HMAC-SHA-256 digest of that address (key derived from the server secret, never the address
 *   itself) with the last time, one row per member and digest; rows older than the retention are
 *   deleted as new ones are written. A join from the same digest is flagged 'member_page_address'.
 */
export class FraudSignals1795470868763 implements MigrationInterface {
  name = 'FraudSignals1795470868763';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE prospects ADD COLUMN flags text[] NOT NULL DEFAULT '{}'::text[]`,
    );
    // The burst check counts one referrer's recent prospects.
    await queryRunner.query(
      `CREATE INDEX prospects_referring_member_created_idx ON prospects (referring_member_id, created_at)`,
    );
    await queryRunner.query(`
      CREATE TABLE former_members (
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        email_digest bytea NOT NULL,
        left_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (business_id, email_digest)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION members_record_former() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO former_members (business_id, email_digest)
        SELECT DISTINCT d.business_id, sha256(convert_to(d.business_id::text || ':' || d.email_key, 'UTF8'))
        FROM deleted d JOIN businesses b ON b.id = d.business_id
        ON CONFLICT (business_id, email_digest) DO UPDATE SET left_at = now();
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER members_record_former_after_delete AFTER DELETE ON members
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION members_record_former()`);
    await queryRunner.query(`
      CREATE TABLE member_page_opens (
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        client_digest bytea NOT NULL,
        opened_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (member_id, client_digest)
      )`);
    // Retention sweeps one business's old rows.
    await queryRunner.query(
      `CREATE INDEX member_page_opens_business_opened_idx ON member_page_opens (business_id, opened_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE member_page_opens`);
    await queryRunner.query(`DROP TRIGGER members_record_former_after_delete ON members`);
    await queryRunner.query(`DROP FUNCTION members_record_former()`);
    await queryRunner.query(`DROP TABLE former_members`);
    await queryRunner.query(`DROP INDEX prospects_referring_member_created_idx`);
    await queryRunner.query(`ALTER TABLE prospects DROP COLUMN flags`);
  }
}
