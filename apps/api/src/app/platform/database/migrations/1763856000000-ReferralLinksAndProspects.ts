import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Referral links (one live link per member) and prospective members who joined through one
 * (docs/product.md#referral-links Referral Links, Referral join page, Prospective Members; docs/architecture.md#database). Both belong to a
 * business and go when their member goes (docs/product.md#states: removing a tree removes its referral link).
 */
export class ReferralLinksAndProspects1763856000000 implements MigrationInterface {
  name = 'ReferralLinksAndProspects1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE referral_links (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        code text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NULL,
        revoked_at timestamptz NULL,
        CONSTRAINT referral_links_code_key UNIQUE (code),
        CONSTRAINT referral_links_code_length CHECK (length(code) >= 16)
      )`);
    // At most one live (not revoked) link per member; also the index of the links list's join.
    await queryRunner.query(
      `CREATE UNIQUE INDEX referral_links_live_member_key ON referral_links (member_id) WHERE revoked_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX referral_links_business_idx ON referral_links (business_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE prospects (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        referring_member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        name text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL,
        source text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT prospects_business_email_key UNIQUE (business_id, email_key)
      )`);
    await queryRunner.query(
      `CREATE INDEX prospects_business_created_idx ON prospects (business_id, created_at, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX prospects_referring_member_idx ON prospects (referring_member_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE prospects`);
    await queryRunner.query(`DROP TABLE referral_links`);
  }
}
