import { Injectable } from '@nestjs/common';
import type { JiraSettings } from './jira.config';
import type { AdfDocument } from './jira-document';
import { errorMessage } from '../../platform/common/error-message';

/** Jira's reply to a created issue (`201 { id, key, self }`). */
export interface CreatedJiraIssue {
  id: string;
  key: string;
  self: string;
}

/** Jira answered with an error status or could not be reached. Never includes the token. */
export class JiraRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'JiraRequestError';
  }
}

/**
 * A tiny Jira Cloud REST API v3 client: `POST {baseUrl}/rest/api/3/issue` with basic auth
 * `email:apiToken` (Atlassian "Basic auth for REST APIs") and the body
 * `{ fields: { project: { key }, issuetype: { name }, summary, description: <ADF doc> } }`.
 */
@Injectable()
export class JiraClient {
  /**
   * Creates one issue.
   * @returns Jira's `{ id, key, self }`
   * @throws JiraRequestError on a non-2xx reply, a reply without `key`, a network error or a 15 s timeout
   */
  async createIssue(
    settings: JiraSettings,
    summary: string,
    description: AdfDocument,
  ): Promise<CreatedJiraIssue> {
    const auth = Buffer.from(`${settings.email}:${settings.apiToken}`, 'utf8').toString('base64');
    let reply: Response;
    try {
      reply = await fetch(`${settings.baseUrl}/rest/api/3/issue`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${auth}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          fields: {
            project: { key: settings.projectKey },
            issuetype: { name: settings.issueType },
            summary,
            description,
          },
        }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new JiraRequestError(`Jira unreachable: ${errorMessage(error)}`, null);
    }
    if (!reply.ok) {
      const text = (await reply.text().catch(() => '')).slice(0, 500);
      throw new JiraRequestError(`Jira answered HTTP ${reply.status}: ${text}`, reply.status);
    }
    const body = (await reply.json()) as Partial<CreatedJiraIssue>;
    if (typeof body.key !== 'string')
      throw new JiraRequestError('Jira reply has no issue key', reply.status);
    return { id: String(body.id ?? ''), key: body.key, self: String(body.self ?? '') };
  }
}
