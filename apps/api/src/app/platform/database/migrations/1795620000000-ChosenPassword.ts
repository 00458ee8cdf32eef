import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a user's password is one they chose (issue 34, docs/decisions/passkeys.md "Set a
 * password"): `users.password_chosen`, true for every account but one that joined with a passkey
 * (its password hash is the hash of 256 random bits nobody knows). Only the account's own
 * Security card reads it ('Set a password' instead of 'Change password'); no sign-in or public
 * route does. Any password written by the person (reset link, change, 'Set a password') sets it.
 *
 * Accounts that joined with a passkey before this migration are found exactly: the invitation's
 * transaction stored the user and their first passkey together, so both rows carry the same
 * transaction time (`now()`); a passkey added later (Security's 'Add a passkey') is another
 * transaction, and sign-up stores no passkey. One whose reset link was used since (a password
 * set by 'Forgot your password?') keeps `true`.
 */
export class ChosenPassword1795620000000 implements MigrationInterface {
  name = 'ChosenPassword1795620000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE users ADD COLUMN password_chosen boolean NOT NULL DEFAULT true`,
    );
    await queryRunner.query(`
      UPDATE users u SET password_chosen = false
       WHERE EXISTS (
         SELECT 1 FROM user_passkeys p WHERE p.user_id = u.id AND p.created_at = u.created_at)
         AND NOT EXISTS (
           SELECT 1 FROM password_reset_tokens r WHERE r.user_id = u.id AND r.used_at IS NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN password_chosen`);
  }
}
