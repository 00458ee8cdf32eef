import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Staff accounts (issue 34 item 1, docs/product.md#staff-accounts): a user is one member of staff
 * of one business with a role.
 *
 * - `users.role`: `owner`, `manager`, `front_desk` or `viewer`; every existing login (the one per
 *   business until now) becomes `owner`.
 * - `staff_invitations`: one row per invitation an owner sent: the address and role, the SHA-256
 *   (hex) of the link's token only (`token_hash`, unique), who invited, when it stops working
 *   (`expires_at`, 7 days later), and when it was accepted or revoked (a link works once). Gone
 *   with the business; `invited_by` is cleared when that owner is removed.
 */
export class StaffAccounts1795573000000 implements MigrationInterface {
  name = 'StaffAccounts1795573000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const roles = `('owner', 'manager', 'front_desk', 'viewer')`;
    await queryRunner.query(`
      ALTER TABLE users
        ADD COLUMN role text NOT NULL DEFAULT 'owner',
        ADD CONSTRAINT users_role_known CHECK (role IN ${roles})`);
    await queryRunner.query(`CREATE TABLE staff_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ${roles}),
      token_hash text NOT NULL UNIQUE,
      invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      revoked_at timestamptz
    )`);
    await queryRunner.query(
      `CREATE INDEX staff_invitations_business_created ON staff_invitations (business_id, created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE staff_invitations`);
    // Staff who are not owners had no account before: they go (their sessions with them).
    await queryRunner.query(`DELETE FROM users WHERE role <> 'owner'`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN role`);
  }
}
