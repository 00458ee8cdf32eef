import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `members.mindbody_contracts_stale` (boolean, default false): a Mindbody contract event
 * (`clientContract.updated`, `clientContract.cancelled`) arrived for the member's client, so the
 * next sync reads that client's contracts again although its profile did not change (issue 22:
 * fewer paid calls — a sync no longer re-reads every member without an autopay contract). Any read
 * of the client's contracts clears it.
 */
export class MindbodyContractsStale1795500000004 implements MigrationInterface {
  name = 'MindbodyContractsStale1795500000004';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE members ADD COLUMN mindbody_contracts_stale boolean NOT NULL DEFAULT false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members DROP COLUMN mindbody_contracts_stale`);
  }
}
