import type { MigrationInterface, QueryRunner } from 'typeorm';

const SOURCES = `'manual', 'import', 'approval', 'mindbody', 'csv', 'backfill'`;

/**
 * A lifecycle fact may come from the business's Stripe (issue 32): `lifecycle_facts.source`
 * 'stripe' for the `member_ended` fact of a member whose subscription Stripe's
 * `customer.subscription.deleted` ended, as 'mindbody' is a Mindbody webhook cancellation's
 * (docs/architecture.md#lifecycle-facts). Down removes those facts' source (set to NULL) first.
 */
export class StripeFactSource1795605000000 implements MigrationInterface {
  name = 'StripeFactSource1795605000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE lifecycle_facts DROP CONSTRAINT lifecycle_facts_source_known,
        ADD CONSTRAINT lifecycle_facts_source_known CHECK (source IS NULL OR source IN (
          ${SOURCES}, 'stripe'))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE lifecycle_facts SET source = NULL WHERE source = 'stripe'`);
    await queryRunner.query(`
      ALTER TABLE lifecycle_facts DROP CONSTRAINT lifecycle_facts_source_known,
        ADD CONSTRAINT lifecycle_facts_source_known CHECK (source IS NULL OR source IN (${SOURCES}))`);
  }
}
