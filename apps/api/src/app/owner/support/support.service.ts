import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import { MESSAGES, type MessageReply, type SupportIssueInput } from '@grove/contracts';
import { NotSignedInException } from '../../platform/auth/auth.exceptions';
import { AppConfig } from '../../platform/config/app-config';
import type { AuthUser } from '../../platform/common/auth-user';
import { jobScope, sessionScope } from '../../platform/database/business-scope';
import { JobsService } from '../../platform/jobs/jobs.service';
import { JiraClient } from './jira.client';
import { issueDescriptionDocument } from './jira-document';
import { SupportRepository } from './support.repository';
import { errorMessage } from '../../platform/common/error-message';

/** The pg-boss queue that files issue reports in Jira. */
const JIRA_QUEUE = 'support.jira';

/** Data of a `support.jira` job. */
export interface JiraJob {
  issueId: string;
  businessId: string;
}

/**
 * The issue form (docs/product.md#issue-form Issue form, docs/product.md#entities Issue report, docs/product.md#calls `/jira/bugfix`). A report is stored in
 * `support_issues` with the session's business and user, and the owner is answered at once.
 * When Jira is configured (JIRA_BASE_URL, JIRA_EMAIL, JIRA_API_TOKEN, JIRA_PROJECT_KEY) a
 * `support.jira` job files it with Jira Cloud REST API v3; a failing call is retried by pg-boss
 * (JIRA_RETRY_LIMIT retries, JIRA_RETRY_DELAY_SECONDS doubling) and the report is marked
 * 'failed' after the last one. The report itself is never lost.
 */
@Injectable()
export class SupportService implements OnModuleInit {
  private readonly logger = new Logger(SupportService.name);

  constructor(
    private readonly issues: SupportRepository,
    private readonly jobs: JobsService,
    private readonly jira: JiraClient,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const { limit, delaySeconds } = this.config.jiraRetry;
    await this.jobs.register<JiraJob>(
      {
        name: JIRA_QUEUE,
        retryLimit: limit,
        retryDelay: delaySeconds,
        retryBackoff: true,
        expireInSeconds: 120,
      },
      (data, job) => this.fileInJira(data, job),
    );
  }

  /**
   * Stores an issue report of the signed-in owner (its fields already checked by
   * `SupportIssueDto`'s rule, contracts' `validateSupportIssueInput`) and, when Jira is
   * configured, queues it for Jira.
   * @returns `{ message: 'Successfully submitted request!' }`
   * @throws NotSignedInException 401 when the session's user no longer belongs to its business
   */
  async report(user: AuthUser, input: SupportIssueInput): Promise<MessageReply> {
    const status = this.config.jira ? 'pending' : 'not_configured';
    // The report and its Jira job are stored together: a crash cannot keep one without the other.
    const id = await this.issues.transaction(async (manager) => {
      const stored = await this.issues.insert(
        sessionScope(user),
        manager,
        user.userId,
        input.summary.trim(),
        input.description.trim(),
        status,
      );
      if (stored && this.config.jira) {
        const job: JiraJob = { issueId: stored, businessId: user.businessId };
        await this.jobs.send<JiraJob>(JIRA_QUEUE, job, { manager });
      }
      return stored;
    });
    if (!id) throw new NotSignedInException();
    if (this.config.jira) this.jobs.wake(JIRA_QUEUE);
    return { message: MESSAGES.supportSuccess };
  }

  /**
   * The `support.jira` job: creates the Jira issue and stores its key with 'created'. On failure
   * the error is rethrown so pg-boss retries; the last attempt first marks the report 'failed'.
   */
  async fileInJira(data: JiraJob, job: PgBoss.JobWithMetadata<JiraJob>): Promise<void> {
    const settings = this.config.jira;
    const scope = jobScope(data);
    const issue = await this.issues.findForJira(scope, data.issueId);
    if (!settings || !issue || issue.jiraStatus === 'created') return;
    const description = issueDescriptionDocument(issue.description, {
      businessName: issue.businessName,
      ownerName: `${issue.ownerFirstName} ${issue.ownerLastName}`,
      ownerEmail: issue.ownerEmail,
      userId: issue.userId,
      businessId: issue.businessId,
    });
    try {
      const created = await this.jira.createIssue(settings, issue.summary, description);
      await this.issues.setJiraResult(scope, issue.id, 'created', created.key);
    } catch (error) {
      const last = job.retryCount >= job.retryLimit;
      this.logger.warn(
        `Jira issue for report ${issue.id} failed (attempt ${job.retryCount + 1}${last ? ', giving up' : ', will retry'}): ${errorMessage(error)}`,
      );
      if (last) await this.issues.setJiraResult(scope, issue.id, 'failed', null);
      throw error;
    }
  }
}
