import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-up by email (issue 31 item 6, docs/product.md#signup): `pending_signups` holds one row per
 * sign-up link Grove emailed to an address no account used: the sign-up form's fields, the
 * password's argon2id hash (never the password), the SHA-256 (hex) of the link's token only
 * (`token_hash`, unique), when it stops working (`expires_at`, 24 hours later) and when it was
 * used (`used_at`; a link works once). An address has at most one unused row
 * (`pending_signups_email`, unique on `lower(email)` while unused): a new sign-up replaces it,
 * also when two arrive at once.
 */
export class PendingSignups1795700000000 implements MigrationInterface {
  name = 'PendingSignups1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE pending_signups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash text NOT NULL UNIQUE,
      email text NOT NULL,
      business_name text NOT NULL,
      website text NOT NULL,
      phone text NOT NULL,
      country text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      password_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX pending_signups_email ON pending_signups (lower(email)) WHERE used_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE pending_signups`);
  }
}
