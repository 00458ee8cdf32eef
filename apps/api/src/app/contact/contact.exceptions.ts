import { MESSAGES } from '@grove/contracts';
import { FieldErrorsException, GroveException } from '../common/grove.exception';

/** A contact form field broke a SPEC §5 rule. → 400 with `fieldErrors` (first one as `message`). */
export class ContactInvalidException extends FieldErrorsException {
  constructor(fieldErrors: Record<string, string>) {
    super(fieldErrors, MESSAGES.contactFailed);
  }
}

/**
 * The captcha is missing, wrong, expired or already used (SPEC §5 "captcha required", §8 contact
 * send failure). → 400 'Error: Please ensure you have completed the reCAPTCHA correctly.'
 */
export class CaptchaFailedException extends GroveException {
  constructor() {
    super(MESSAGES.contactFailed, { captcha: MESSAGES.captchaRequired });
  }
}
