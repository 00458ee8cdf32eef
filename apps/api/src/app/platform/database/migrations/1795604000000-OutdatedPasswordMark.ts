import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A password a sign-in found no longer meets Grove's rule (issue 34, docs/decisions/passkeys.md
 * "An old password at a passkey sign-in"): `users.outdated_password_hash` holds the password hash
 * as it was when a password sign-in saw that password was too short or common. While it still
 * equals `password_hash`, a sign-in with a passkey asks for a new password as the password
 * sign-in does; any change of the password (a new salt, a new hash) ends it without a write.
 */
export class OutdatedPasswordMark1795604000000 implements MigrationInterface {
  name = 'OutdatedPasswordMark1795604000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN outdated_password_hash text NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN outdated_password_hash`);
  }
}
