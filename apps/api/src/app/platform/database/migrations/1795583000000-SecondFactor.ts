import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A second factor at sign-in (issue 34 item 3, docs/decisions/second-factor.md):
 *
 * - `user_totp`: one authenticator app per user; `secret_sealed` is the base32 secret sealed with
 *   AES-256-GCM (`v1.<iv>.<tag>.<ciphertext>`); `confirmed_at` NULL while enrolling (a code not yet
 *   confirmed); `last_time_step` the 30-second step of the last code accepted (a code is accepted
 *   once, ASVS 2.8.4).
 * - `user_recovery_codes`: 10 single-use codes per confirmed enrolment, only their SHA-256 stored.
 * - `second_factor_challenges`: the step between a right password and the code: only the SHA-256
 *   of its token (the browser holds the token in an httpOnly cookie), 5 minutes, single use, at
 *   most 5 wrong codes.
 * - `businesses.second_factor_required`: the owner requires a second factor of every member of
 *   staff (one without is sent to set one up at their next sign-in).
 */
export class SecondFactor1795583000000 implements MigrationInterface {
  name = 'SecondFactor1795583000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE user_totp (
         user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
         business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
         secret_sealed text NOT NULL,
         confirmed_at timestamptz NULL,
         last_time_step bigint NULL,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE user_recovery_codes (
         id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
         user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         code_hash text NOT NULL,
         used_at timestamptz NULL,
         UNIQUE (user_id, code_hash)
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE second_factor_challenges (
         token_hash text PRIMARY KEY,
         user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         password_change_required boolean NOT NULL DEFAULT false,
         failures integer NOT NULL DEFAULT 0,
         expires_at timestamptz NOT NULL,
         used_at timestamptz NULL
       )`,
    );
    await queryRunner.query(
      `CREATE INDEX second_factor_challenges_user ON second_factor_challenges (user_id)`,
    );
    await queryRunner.query(
      `ALTER TABLE businesses ADD COLUMN second_factor_required boolean NOT NULL DEFAULT false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN second_factor_required`);
    await queryRunner.query(`DROP TABLE second_factor_challenges`);
    await queryRunner.query(`DROP TABLE user_recovery_codes`);
    await queryRunner.query(`DROP TABLE user_totp`);
  }
}
