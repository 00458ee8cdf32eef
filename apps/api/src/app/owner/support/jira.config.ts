import { IsOptional, IsString, MinLength } from 'class-validator';
import { EnvInt, EnvUrl } from '../../platform/common/config/env-section';

/** The Jira environment variables: issue reports are filed there when all of JIRA_BASE_URL, JIRA_EMAIL, JIRA_API_TOKEN and JIRA_PROJECT_KEY are set. */
export class JiraEnv {
  /** Jira Cloud site (`https://your-site.atlassian.net`). */
  @EnvUrl()
  @IsOptional()
  JIRA_BASE_URL?: string;

  @IsString()
  @IsOptional()
  JIRA_EMAIL?: string;

  /** Secret. */
  @IsString()
  @IsOptional()
  JIRA_API_TOKEN?: string;

  @IsString()
  @IsOptional()
  JIRA_PROJECT_KEY?: string;

  @IsString()
  @MinLength(1)
  JIRA_ISSUE_TYPE = 'Bug';

  /** Retries of a failed Jira call after the first attempt. */
  @EnvInt(0, 50)
  JIRA_RETRY_LIMIT = 5;

  /** Seconds before the first Jira retry; doubled on each further retry. */
  @EnvInt(1)
  JIRA_RETRY_DELAY_SECONDS = 30;
}

/** Jira Cloud REST API v3 settings for issue reports; null in `AppConfig.jira` when not configured. */
export interface JiraSettings {
  /** Site origin without trailing slash, e.g. `https://grove.atlassian.net`. */
  baseUrl: string;
  email: string;
  apiToken: string;
  projectKey: string;
  issueType: string;
}

/** pg-boss retry settings of the Jira job (seconds; the delay doubles each retry). */
export interface RetrySettings {
  limit: number;
  delaySeconds: number;
}

/** `AppConfig.jira` (null unless all four JIRA_* connection variables are set) and `AppConfig.jiraRetry`. */
export function readJiraConfig(vars: JiraEnv): {
  /** Jira settings, or null when issue reports are only stored. */
  jira: JiraSettings | null;
  jiraRetry: RetrySettings;
} {
  const { JIRA_BASE_URL, JIRA_EMAIL, JIRA_API_TOKEN, JIRA_PROJECT_KEY } = vars;
  const jira =
    JIRA_BASE_URL && JIRA_EMAIL && JIRA_API_TOKEN && JIRA_PROJECT_KEY
      ? {
          baseUrl: JIRA_BASE_URL.replace(/\/+$/, ''),
          email: JIRA_EMAIL,
          apiToken: JIRA_API_TOKEN,
          projectKey: JIRA_PROJECT_KEY,
          issueType: vars.JIRA_ISSUE_TYPE,
        }
      : null;
  return {
    jira,
    jiraRetry: { limit: vars.JIRA_RETRY_LIMIT, delaySeconds: vars.JIRA_RETRY_DELAY_SECONDS },
  };
}

/** This section's settings, as `readJiraConfig` builds them. */
type JiraSection = ReturnType<typeof readJiraConfig>;

// The section joins `AppConfig` (platform names no area above it: docs/architecture.md#api-areas).
declare module '../../platform/config/app-config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppSettingsMap extends JiraSection {}
}
