import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (issue 34 item 2, docs/product.md#audit-log, docs/decisions/audit-log-append-only.md):
 * one row per change to a member, a price, a discount, a branch, a prospect, a setting, an import,
 * an integration or a bill write, written in the same transaction as the change.
 *
 * - `audit_log`: the business; when (`at`); who (`actor`: `staff` with `author_user_id` and their
 *   name at the time in `author_name`, or `mindbody`, `stripe`, `system`); `kind`
 *   (`member.price_changed`, …); the member it is about (`member_id`, `member_name`, no foreign
 *   key: the history outlives the member and the author); `before` and `after` (small JSON, at most
 *   4,000 bytes each). Gone with the business.
 * - `businesses.audit_retention_days`: how long a business keeps its log (30 to 3,650 days,
 *   default 730, two years).
 * - Append-only: a trigger refuses every UPDATE, and every DELETE of a row still within its
 *   business's retention (a row of a deleted business goes with it); TRUNCATE is refused.
 *   `prune_audit_log(batch)`, owned by the tables' owner (SECURITY DEFINER), deletes rows past
 *   retention for the daily job: in production the API's role has only SELECT and INSERT on the
 *   table (`platform/database/app-role.ts`).
 */
export class AuditLog1795582000000 implements MigrationInterface {
  name = 'AuditLog1795582000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE businesses
        ADD COLUMN audit_retention_days integer NOT NULL DEFAULT 730
        CONSTRAINT businesses_audit_retention_days_range
          CHECK (audit_retention_days BETWEEN 30 AND 3650)`);
    await queryRunner.query(`CREATE TABLE audit_log (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
      at timestamptz NOT NULL DEFAULT clock_timestamp(),
      actor text NOT NULL CHECK (actor IN ('staff', 'mindbody', 'stripe', 'system')),
      author_user_id uuid,
      author_name text CHECK (char_length(author_name) <= 201),
      kind text NOT NULL CHECK (kind ~ '^[a-z_]+\\.[a-z_]+$' AND char_length(kind) <= 60),
      member_id uuid,
      member_name text CHECK (char_length(member_name) <= 200),
      before jsonb CHECK (octet_length(before::text) <= 4000),
      after jsonb CHECK (octet_length(after::text) <= 4000),
      CONSTRAINT audit_log_staff_author CHECK ((actor = 'staff') = (author_user_id IS NOT NULL))
    )`);
    await queryRunner.query(
      `CREATE INDEX audit_log_business_at ON audit_log (business_id, at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX audit_log_business_member ON audit_log (business_id, member_id, at DESC)
        WHERE member_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX audit_log_business_author ON audit_log (business_id, author_user_id, at DESC)
        WHERE author_user_id IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keep_days integer;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          SELECT audit_retention_days INTO keep_days FROM businesses WHERE id = OLD.business_id;
          -- A deleted business takes its log with it; otherwise only rows past retention go.
          IF keep_days IS NULL OR OLD.at < now() - make_interval(days => keep_days) THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
    await queryRunner.query(`
      CREATE FUNCTION prune_audit_log(batch integer) RETURNS integer
        LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
        WITH gone AS (
          DELETE FROM audit_log WHERE id = ANY(ARRAY(
            SELECT a.id FROM audit_log a JOIN businesses b ON b.id = a.business_id
            WHERE a.at < now() - make_interval(days => b.audit_retention_days)
            LIMIT least(greatest(batch, 1), 10000)))
          RETURNING 1)
        SELECT count(*)::integer FROM gone
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION prune_audit_log(integer)`);
    await queryRunner.query(`DROP TABLE audit_log`);
    await queryRunner.query(`DROP FUNCTION audit_log_append_only()`);
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN audit_retention_days`);
  }
}
