import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Forgot password (issue 25, docs/product.md#forgot-password): `password_reset_tokens` holds one
 * row per reset link Grove emailed an owner, the SHA-256 (hex) of its token only
 * (`token_hash`, unique), its owner (`user_id`, gone with the user), when it was made, when it
 * stops working (`expires_at`, 30 minutes later) and when it was used (`used_at`; a link works
 * once). `(user_id, created_at)` serves the per-owner count of recent links and the clean-up of
 * old ones.
 */
export class PasswordResetTokens1795503217409 implements MigrationInterface {
  name = 'PasswordResetTokens1795503217409';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE password_reset_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
    await queryRunner.query(
      `CREATE INDEX password_reset_tokens_user_created ON password_reset_tokens (user_id, created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE password_reset_tokens`);
  }
}
