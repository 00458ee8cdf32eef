import { HttpStatus } from '@nestjs/common';
import { MESSAGES } from '@grove/contracts';
import { GroveException } from '../common/grove.exception';

/**
 * The captcha of a public form (contact, landing page lead) is missing, wrong, expired or already
 * used (docs/product.md#validation "captcha required", docs/product.md#errors contact send failure). → 400 'Error: Please ensure you have
 * completed the reCAPTCHA correctly.' with `fieldErrors.captcha` 'Please complete the captcha'.
 */
export class CaptchaFailedException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(MESSAGES.contactFailed, { captcha: MESSAGES.captchaRequired });
  }
}
