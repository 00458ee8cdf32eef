import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public site's forms and the issue form (issue 5; docs/product.md#contact-page Contact page, Landing page, Issue
 * form; docs/product.md#entities Contact message, Issue report):
 * - `captcha_solutions`: every accepted altcha challenge (its signature), so a solution is
 *   accepted once; rows past `expires_at` are pruned.
 * - `contact_messages`: contact form submissions (message already sanitized), with delivery state.
 * - `leads`: the landing page's 'Learn More' pop-up.
 * - `outbox_emails`: emails kept in the database when no SMTP server is configured.
 * - `support_issues`: issue reports of a signed-in owner (business-owned) and their Jira state.
 */
export class ContactSupportLeads1764028800000 implements MigrationInterface {
  name = 'ContactSupportLeads1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE captcha_solutions (
        signature text PRIMARY KEY,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX captcha_solutions_expires_idx ON captcha_solutions (expires_at)`,
    );
    await queryRunner.query(`
      CREATE TABLE contact_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        first_name text NOT NULL,
        last_name text NOT NULL,
        email text NOT NULL,
        phone text NOT NULL,
        website text NOT NULL,
        message text NOT NULL,
        client_ip text NULL,
        delivery text NOT NULL DEFAULT 'pending',
        delivered_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT contact_messages_delivery_check CHECK (delivery IN ('pending', 'sent', 'outboxed'))
      )`);
    await queryRunner.query(`
      CREATE TABLE leads (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        full_name text NOT NULL,
        email text NOT NULL,
        phone text NOT NULL,
        company text NOT NULL,
        client_ip text NULL,
        delivery text NOT NULL DEFAULT 'pending',
        delivered_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT leads_delivery_check CHECK (delivery IN ('pending', 'sent', 'outboxed'))
      )`);
    await queryRunner.query(`
      CREATE TABLE outbox_emails (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "to" text NOT NULL,
        reply_to text NULL,
        subject text NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE support_issues (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        business_id uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        summary text NOT NULL,
        description text NOT NULL,
        jira_key text NULL,
        jira_status text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT support_issues_jira_status_check
          CHECK (jira_status IN ('not_configured', 'pending', 'created', 'failed'))
      )`);
    await queryRunner.query(
      `CREATE INDEX support_issues_business_created_idx ON support_issues (business_id, created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE support_issues`);
    await queryRunner.query(`DROP TABLE outbox_emails`);
    await queryRunner.query(`DROP TABLE leads`);
    await queryRunner.query(`DROP TABLE contact_messages`);
    await queryRunner.query(`DROP TABLE captcha_solutions`);
  }
}
