import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSV imports of members (issue 14 part 5). One row per uploaded file of a business: the parsed
 * header and data rows (`rows`: an array of rows, each an array of cell strings; at most 10,000
 * rows of a file of at most 5 MB) and the file line of each (`lines`), the column mapping the owner ran it with, its state and
 * progress (`processed_rows` of `total_rows`, polled by the Import dialog's progress bar) and,
 * once done, how many rows had each outcome (`counts`). Uploads older than a day are deleted by
 * the next upload of the same business.
 */
export class MemberImports1795470869787 implements MigrationInterface {
  name = 'MemberImports1795470869787';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE member_imports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        headers jsonb NOT NULL,
        rows jsonb NOT NULL,
        lines jsonb NOT NULL,
        total_rows integer NOT NULL,
        mapping jsonb NULL,
        state text NOT NULL DEFAULT 'uploaded',
        processed_rows integer NOT NULL DEFAULT 0,
        counts jsonb NULL,
        error text NULL,
        finished_at timestamptz NULL,
        CONSTRAINT member_imports_state_known CHECK (state IN ('uploaded', 'queued', 'running', 'done', 'failed'))
      )`);
    await queryRunner.query(
      `CREATE INDEX member_imports_business_idx ON member_imports (business_id, created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE member_imports`);
  }
}
