import { FieldErrorsException } from '../../platform/common/grove.exception';

/** The issue form broke a rule (docs/product.md#validation-issue: both fields required). → 400 with `fieldErrors`. */
export class SupportIssueInvalidException extends FieldErrorsException {
  constructor(fieldErrors: Record<string, string>) {
    super(fieldErrors, 'Invalid request');
  }
}
