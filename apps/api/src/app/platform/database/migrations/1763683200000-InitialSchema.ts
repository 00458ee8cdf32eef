import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Businesses, owners, refresh-token sessions and members (trees/branches), docs/architecture.md#database. */
export class InitialSchema1763683200000 implements MigrationInterface {
  name = 'InitialSchema1763683200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`
      CREATE TABLE businesses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        website text NOT NULL,
        phone text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        email text NOT NULL,
        first_name text NOT NULL,
        last_name text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`);
    await queryRunner.query(`CREATE INDEX users_business_id_idx ON users (business_id)`);
    await queryRunner.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        refresh_token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz NULL,
        replaced_by_id uuid NULL,
        user_agent text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX sessions_refresh_token_hash_key ON sessions (refresh_token_hash)`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_user_id_idx ON sessions (user_id) WHERE revoked_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE members (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        name text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL,
        membership_price_cents integer NOT NULL CHECK (membership_price_cents >= 0),
        discount_cents integer NOT NULL CHECK (discount_cents >= 0),
        referred_by_id uuid NULL REFERENCES members(id) ON DELETE SET NULL,
        mindbody_client_id text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT members_business_email_key UNIQUE (business_id, email_key),
        CONSTRAINT members_not_own_branch CHECK (referred_by_id IS NULL OR referred_by_id <> id)
      )`);
    await queryRunner.query(
      `CREATE INDEX members_business_referred_by_idx ON members (business_id, referred_by_id)`,
    );
    await queryRunner.query(`CREATE INDEX members_referred_by_idx ON members (referred_by_id)`);
    await queryRunner.query(
      `CREATE INDEX members_business_name_idx ON members (business_id, lower(name), id)`,
    );
    await queryRunner.query(
      `CREATE INDEX members_business_email_idx ON members (business_id, lower(email), id)`,
    );
    await queryRunner.query(
      `CREATE INDEX members_business_created_idx ON members (business_id, created_at, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX members_name_trgm_idx ON members USING gin (lower(name) gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX members_email_trgm_idx ON members USING gin (lower(email) gin_trgm_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE members`);
    await queryRunner.query(`DROP TABLE sessions`);
    await queryRunner.query(`DROP TABLE users`);
    await queryRunner.query(`DROP TABLE businesses`);
    // pg_trgm is left installed: other schemas in the database may use it.
  }
}
