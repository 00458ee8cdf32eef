import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The friend's welcome offer (issue 33 item 1, docs/product.md#welcome-offer):
 * - `businesses.welcome_offer`: the owner's offer as `{ kind, amountCents, percent, months, text }`
 *   (contracts' `WelcomeOffer`, checked by the API), NULL for none (the default);
 * - `welcome_offer_grants`: the offer granted to a friend at approval, one per member, as it was
 *   then (the offer and its wording), until the owner marks it honoured by hand.
 */
export class WelcomeOffer1795574000000 implements MigrationInterface {
  name = 'WelcomeOffer1795574000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses
         ADD COLUMN welcome_offer jsonb NULL
         CONSTRAINT businesses_welcome_offer_object CHECK (jsonb_typeof(welcome_offer) = 'object')`,
    );
    await queryRunner.query(
      `CREATE TABLE welcome_offer_grants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        member_id uuid NOT NULL UNIQUE REFERENCES members(id) ON DELETE CASCADE,
        offer jsonb NOT NULL CHECK (jsonb_typeof(offer) = 'object'),
        wording text NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT now(),
        honoured_at timestamptz NULL
      )`,
    );
    await queryRunner.query(
      `CREATE INDEX welcome_offer_grants_business_idx ON welcome_offer_grants (business_id, granted_at)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE welcome_offer_grants`);
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN welcome_offer`);
  }
}
