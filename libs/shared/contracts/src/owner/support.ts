import { MESSAGES } from '../common/messages';
import { isPlainMultilineText, isPlainText } from '../common/plain-text';

/** Longest issue title (Jira's summary field holds at most 255 characters). */
export const SUPPORT_SUMMARY_MAX_LENGTH = 200;
/** Longest issue description. */
export const SUPPORT_DESCRIPTION_MAX_LENGTH = 5000;

/** The issue form's fields (docs/product.md#issue-form Issue form, docs/product.md#entities Issue report). */
export interface SupportIssueInput {
  summary: string;
  description: string;
}

/**
 * Checks the issue form (docs/product.md#validation-issue: both fields required): title 'Please enter an issue title' /
 * at most 200 characters, description 'Please describe the issue' / at most 5000 characters
 * (both checked after trimming); no control characters ('The issue title contains characters that
 * cannot be sent'; the description may hold tabs and line breaks).
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateSupportIssueInput(
  input: SupportIssueInput,
): Partial<Record<keyof SupportIssueInput, string>> {
  const errors: Partial<Record<keyof SupportIssueInput, string>> = {};
  const summary = (input.summary ?? '').trim();
  const description = (input.description ?? '').trim();
  if (!summary) errors.summary = MESSAGES.issueTitleRequired;
  else if (summary.length > SUPPORT_SUMMARY_MAX_LENGTH) errors.summary = MESSAGES.issueTitleTooLong;
  else if (!isPlainText(summary)) errors.summary = MESSAGES.issueTitleInvalidCharacters;
  if (!description) errors.description = MESSAGES.issueDescriptionRequired;
  else if (description.length > SUPPORT_DESCRIPTION_MAX_LENGTH)
    errors.description = MESSAGES.issueDescriptionTooLong;
  else if (!isPlainMultilineText(description))
    errors.description = MESSAGES.issueDescriptionInvalidCharacters;
  return errors;
}
