import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSV uploads stored compressed (issue 31 item 1): `member_imports.upload` holds the parsed data
 * rows and their file lines as gzip of the JSON `{"rows": [[cell, …], …], "lines": [n, …]}`,
 * instead of the `rows` and `lines` JSONB columns (a 5 MB upload is kept a day; compressed it
 * takes a fraction of that). `rows` and `lines` become nullable and new uploads leave them NULL;
 * an upload stored before this migration (at most a day old, deleted by its business's next
 * upload) is still read from them, and an instance of the previous build during a rolling deploy
 * can still write them. A later migration may drop both once no row has them.
 */
export class MemberImportsCompressed1795571700000 implements MigrationInterface {
  name = 'MemberImportsCompressed1795571700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE member_imports ADD COLUMN upload bytea NULL`);
    await queryRunner.query(`ALTER TABLE member_imports ALTER COLUMN rows DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE member_imports ALTER COLUMN lines DROP NOT NULL`);
  }

  /**
   * Back to JSONB only: an upload stored compressed cannot be decompressed by SQL, so it is
   * deleted (uploads are kept a day; the owner uploads the file again), unless it is queued or
   * running (then it keeps empty rows and finishes with nothing to write).
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM member_imports WHERE rows IS NULL AND state NOT IN ('queued', 'running')`,
    );
    await queryRunner.query(
      `UPDATE member_imports SET rows = '[]'::jsonb, lines = '[]'::jsonb WHERE rows IS NULL`,
    );
    await queryRunner.query(`ALTER TABLE member_imports ALTER COLUMN lines SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE member_imports ALTER COLUMN rows SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE member_imports DROP COLUMN upload`);
  }
}
