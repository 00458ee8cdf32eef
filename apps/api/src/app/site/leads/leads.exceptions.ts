import { MESSAGES } from '@grove/contracts';
import { FieldErrorsException } from '../../platform/common/grove.exception';

/** A 'Learn More' field broke its rule (contracts' `validateLeadInput`). → 400 with `fieldErrors`. */
export class LeadInvalidException extends FieldErrorsException {
  constructor(fieldErrors: Record<string, string>) {
    super(fieldErrors, MESSAGES.fillAllFields);
  }
}
