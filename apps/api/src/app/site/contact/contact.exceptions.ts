import { MESSAGES } from '@grove/contracts';
import { FieldErrorsException } from '../../platform/common/grove.exception';

/** A contact form field broke a docs/product.md#validation-contact rule. → 400 with `fieldErrors` (first one as `message`). */
export class ContactInvalidException extends FieldErrorsException {
  constructor(fieldErrors: Record<string, string>) {
    super(fieldErrors, MESSAGES.contactFailed);
  }
}
