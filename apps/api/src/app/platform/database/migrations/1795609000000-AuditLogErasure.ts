import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member erased on request leaves no name or email in the append-only audit log (issue 34
 * item 4, docs/decisions/audit-log-append-only.md "Erasure"):
 *
 * - `audit_log_erases(old, new)`: true when an UPDATE changes nothing but personal data into the
 *   erased marker 'Erased member' (`ERASED_MEMBER_NAME` of `@grove/contracts`, repeated here as
 *   SQL cannot import it): `member_name`, or a top-level value of `before` / `after`, and only in
 *   a business that has an erased member. Kinds, times, authors, prices and keys stay as they were.
 * - the append-only trigger lets exactly such an UPDATE through; every other UPDATE is refused as
 *   before;
 * - `erase_audit_member(business, member, name, email)`, owned by the tables' owner (SECURITY
 *   DEFINER: in production the API's role has no UPDATE on the log), once the member row is
 *   erased: its name on its own entries, and every top-level `before` / `after` string equal to
 *   a name or email it had (now, or as its own entries recorded them) on the business's entries
 *   (its own, and another member's naming it as referrer or friend). Returns the entries changed.
 */
export class AuditLogErasure1795609000000 implements MigrationInterface {
  name = 'AuditLogErasure1795609000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION audit_json_erases(old_value jsonb, new_value jsonb) RETURNS boolean
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
        SELECT CASE
          WHEN old_value IS NULL OR new_value IS NULL THEN old_value IS NOT DISTINCT FROM new_value
          WHEN jsonb_typeof(old_value) <> 'object' OR jsonb_typeof(new_value) <> 'object'
            THEN old_value = new_value
          ELSE ARRAY(SELECT jsonb_object_keys(old_value) ORDER BY 1)
                 = ARRAY(SELECT jsonb_object_keys(new_value) ORDER BY 1)
            AND NOT EXISTS (
              SELECT 1 FROM jsonb_each(old_value) kept
              WHERE new_value -> kept.key <> kept.value
                AND new_value -> kept.key <> '"Erased member"'::jsonb)
        END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION audit_log_erases(old_row audit_log, new_row audit_log) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
        SELECT (new_row.id, new_row.business_id, new_row.at, new_row.actor, new_row.author_user_id,
                new_row.author_name, new_row.kind, new_row.member_id)
                 IS NOT DISTINCT FROM
               (old_row.id, old_row.business_id, old_row.at, old_row.actor, old_row.author_user_id,
                old_row.author_name, old_row.kind, old_row.member_id)
          AND (new_row.member_name IS NOT DISTINCT FROM old_row.member_name
               OR new_row.member_name = 'Erased member')
          AND audit_json_erases(old_row.before, new_row.before)
          AND audit_json_erases(old_row.after, new_row.after)
          AND EXISTS (SELECT 1 FROM members m
                      WHERE m.business_id = old_row.business_id AND m.erased_at IS NOT NULL)
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
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
        -- An erased member's name and email may become 'Erased member'; nothing else changes.
        IF TG_OP = 'UPDATE' AND audit_log_erases(OLD, NEW) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION audit_json_erase(p_value jsonb, p_personal text[]) RETURNS jsonb
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
        SELECT CASE WHEN jsonb_typeof(p_value) = 'object' THEN coalesce((
          SELECT jsonb_object_agg(entry.key, CASE
              WHEN jsonb_typeof(entry.item) = 'string' AND entry.item #>> '{}' = ANY(p_personal)
                THEN '"Erased member"'::jsonb
              ELSE entry.item END)
          FROM jsonb_each(p_value) AS entry(key, item)), p_value)
        ELSE p_value END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION erase_audit_member(p_business uuid, p_member uuid, p_name text, p_email text)
        RETURNS integer
        LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
        WITH erased AS (
          SELECT 1 FROM members m
          WHERE m.business_id = p_business AND m.id = p_member AND m.erased_at IS NOT NULL
        ), own AS (
          SELECT a.member_name, a.before, a.after FROM audit_log a
          WHERE a.business_id = p_business AND a.member_id = p_member
        ), personal AS (
          -- Every name and email the member had: now, and as its own entries recorded them.
          SELECT coalesce(array_agg(DISTINCT value), '{}') AS values FROM (
            SELECT p_name AS value UNION ALL SELECT p_email
            UNION ALL SELECT member_name FROM own
            UNION ALL SELECT side ->> field FROM own
              CROSS JOIN LATERAL (VALUES (own.before), (own.after)) AS sides(side)
              CROSS JOIN unnest(ARRAY['name', 'email']) AS field
              WHERE jsonb_typeof(side) = 'object'
          ) found
          WHERE value IS NOT NULL AND value <> '' AND value <> 'Erased member'
        ), changed AS (
          UPDATE audit_log a SET
            member_name = CASE WHEN a.member_id = p_member THEN 'Erased member'
                               ELSE a.member_name END,
            before = audit_json_erase(a.before, personal.values),
            after = audit_json_erase(a.after, personal.values)
          FROM personal
          WHERE a.business_id = p_business AND EXISTS (SELECT 1 FROM erased)
            AND (a.member_id = p_member
                 OR audit_json_erase(a.before, personal.values) IS DISTINCT FROM a.before
                 OR audit_json_erase(a.after, personal.values) IS DISTINCT FROM a.after)
          RETURNING 1)
        SELECT count(*)::integer FROM changed
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION erase_audit_member(uuid, uuid, text, text)`);
    await queryRunner.query(`DROP FUNCTION audit_json_erase(jsonb, text[])`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keep_days integer;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          SELECT audit_retention_days INTO keep_days FROM businesses WHERE id = OLD.business_id;
          IF keep_days IS NULL OR OLD.at < now() - make_interval(days => keep_days) THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`DROP FUNCTION audit_log_erases(audit_log, audit_log)`);
    await queryRunner.query(`DROP FUNCTION audit_json_erases(jsonb, jsonb)`);
  }
}
