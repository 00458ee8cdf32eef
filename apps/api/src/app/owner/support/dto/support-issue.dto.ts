import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import {
  MESSAGES,
  SUPPORT_DESCRIPTION_MAX_LENGTH,
  SUPPORT_SUMMARY_MAX_LENGTH,
  type SupportIssueInput,
  type SupportIssueRequest,
  validateSupportIssueInput,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * `POST /api/support/issues` body (docs/product.md#issue-form Issue form: Issue title, Issue Description). The types
 * are checked field by field, then contracts' `validateSupportIssueInput` (the issue form's rule).
 */
@ValidatedBy((body: SupportIssueDto) => validateSupportIssueInput(body.toInput()))
export class SupportIssueDto implements Partial<SupportIssueRequest> {
  @ApiProperty({
    example: 'The branches table does not load',
    maxLength: SUPPORT_SUMMARY_MAX_LENGTH,
  })
  @IsOptional()
  @IsString({ message: MESSAGES.issueTitleRequired })
  summary?: string;

  @ApiProperty({
    example: 'Since this morning the spinner never stops.',
    maxLength: SUPPORT_DESCRIPTION_MAX_LENGTH,
  })
  @IsOptional()
  @IsString({ message: MESSAGES.issueDescriptionRequired })
  description?: string;

  /** The body with absent fields as empty strings. */
  toInput(): SupportIssueInput {
    return { summary: this.summary ?? '', description: this.description ?? '' };
  }
}
