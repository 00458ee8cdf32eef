import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { runTransaction } from '../../platform/database/transaction';
import type { BusinessScope } from '../../platform/database/business-scope';

/** Where an issue report stands with Jira. */
export type JiraStatus = 'not_configured' | 'pending' | 'created' | 'failed';

/** An issue report with what the Jira description names about its reporter. */
export interface IssueForJira {
  id: string;
  businessId: string;
  userId: string;
  summary: string;
  description: string;
  jiraStatus: JiraStatus;
  businessName: string;
  ownerFirstName: string;
  ownerLastName: string;
  ownerEmail: string;
}

/**
 * The only way to the `support_issues` table. TENANCY: every method takes a `BusinessScope` first
 * (the session's, or the Jira job's that the session queued) and every statement filters on it.
 */
@Injectable()
export class SupportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a report of `userId` in the scope's business, inside `manager`'s transaction. @returns its id, or null when the user is not of that business */
  async insert(
    { businessId }: BusinessScope,
    manager: EntityManager,
    userId: string,
    summary: string,
    description: string,
    jiraStatus: JiraStatus,
  ): Promise<string | null> {
    const rows = (await manager.query(
      `INSERT INTO support_issues (business_id, user_id, summary, description, jira_status)
       SELECT $1, u.id, $3, $4, $5 FROM users u WHERE u.id = $2 AND u.business_id = $1
       RETURNING id`,
      [businessId, userId, summary, description, jiraStatus],
    )) as { id: string }[];
    return rows[0]?.id ?? null;
  }

  /** The report with its business and owner, or null when it is not this business's. */
  async findForJira({ businessId }: BusinessScope, issueId: string): Promise<IssueForJira | null> {
    const rows = (await this.dataSource.query(
      `SELECT s.id, s.business_id, s.user_id, s.summary, s.description, s.jira_status,
              b.name AS business_name, u.first_name, u.last_name, u.email
       FROM support_issues s
       JOIN businesses b ON b.id = s.business_id
       JOIN users u ON u.id = s.user_id AND u.business_id = s.business_id
       WHERE s.business_id = $1 AND s.id = $2`,
      [businessId, issueId],
    )) as {
      id: string;
      business_id: string;
      user_id: string;
      summary: string;
      description: string;
      jira_status: JiraStatus;
      business_name: string;
      first_name: string;
      last_name: string;
      email: string;
    }[];
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      businessId: row.business_id,
      userId: row.user_id,
      summary: row.summary,
      description: row.description,
      jiraStatus: row.jira_status,
      businessName: row.business_name,
      ownerFirstName: row.first_name,
      ownerLastName: row.last_name,
      ownerEmail: row.email,
    };
  }

  /** Records Jira's outcome: the issue key and 'created', or 'failed' (key unchanged). */
  async setJiraResult(
    { businessId }: BusinessScope,
    issueId: string,
    status: 'created' | 'failed',
    jiraKey: string | null,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE support_issues SET jira_status = $3, jira_key = COALESCE($4, jira_key), updated_at = now()
       WHERE business_id = $1 AND id = $2`,
      [businessId, issueId, status, jiraKey],
    );
  }

  /** Runs `work` in one transaction (`runTransaction`: it may run twice on a conflict). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
