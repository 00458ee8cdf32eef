import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `sessions.family_id` (uuid) and `sessions.signed_in_at` (timestamptz): every rotation of one
 * sign-in shares the family and the sign-in time, so the absolute lifetime counts from the login
 * (rotation does not extend it) and a refresh token reused after its grace window revokes that
 * family only (OAuth 2.0 Security BCP, refresh token rotation). Existing chains are walked from
 * their first row (the one no row was replaced by) along `replaced_by_id`.
 */
export class SessionFamilies1795460545382 implements MigrationInterface {
  name = 'SessionFamilies1795460545382';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE sessions ADD COLUMN family_id uuid NULL, ADD COLUMN signed_in_at timestamptz NULL`,
    );
    await queryRunner.query(`
      WITH RECURSIVE chain AS (
        SELECT s.id, s.id AS family_id, s.created_at AS signed_in_at
        FROM sessions s
        WHERE NOT EXISTS (SELECT 1 FROM sessions p WHERE p.replaced_by_id = s.id)
        UNION ALL
        SELECT next.id, chain.family_id, chain.signed_in_at
        FROM chain
        JOIN sessions previous ON previous.id = chain.id
        JOIN sessions next ON next.id = previous.replaced_by_id
      )
      UPDATE sessions SET family_id = chain.family_id, signed_in_at = chain.signed_in_at
      FROM chain WHERE chain.id = sessions.id`);
    // A row left out (a cycle cannot happen, but a hand-edited table might hold one) is its own family.
    await queryRunner.query(
      `UPDATE sessions SET family_id = id, signed_in_at = created_at WHERE family_id IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE sessions ALTER COLUMN family_id SET NOT NULL, ALTER COLUMN signed_in_at SET NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX sessions_family_id_idx ON sessions (family_id)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sessions_family_id_idx`);
    await queryRunner.query(`ALTER TABLE sessions DROP COLUMN signed_in_at, DROP COLUMN family_id`);
  }
}
