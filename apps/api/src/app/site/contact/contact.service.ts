import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  DEFAULT_COUNTRY,
  internationalPhone,
  MESSAGES,
  type ContactInput,
  type MessageReply,
} from '@grove/contracts';
import { CaptchaFailedException } from '../../platform/captcha/captcha.exceptions';
import { CaptchaService } from '../../platform/captcha/captcha.service';
import { AppConfig } from '../../platform/config/app-config';
import { MailService } from '../../platform/mail/mail.service';
import { ContactRepository } from './contact.repository';
import { sanitizePlainText } from './sanitize-text';

/** The image captcha of the contact form without JavaScript: its token and the typed code. */
export interface ImageCaptchaAnswer {
  token: string;
  answer: string;
}

/** `source.kind` of contact emails (see MailService.onDelivered). */
const CONTACT_EMAIL_KIND = 'contact';

/**
 * The public contact form (docs/product.md#contact-page Contact page, docs/product.md#entities Contact message, docs/product.md#validation-contact Contact form, docs/product.md#errors). Checks
 * the fields, then the captcha, sanitizes the message, stores it in `contact_messages` and queues
 * an email to CONTACT_RECIPIENT (reply-to the visitor) through the mail module. This replaces
 * the old app's call to an email-sending service (docs/product.md#calls).
 */
@Injectable()
export class ContactService implements OnModuleInit {
  constructor(
    private readonly captcha: CaptchaService,
    private readonly mail: MailService,
    private readonly contacts: ContactRepository,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.mail.onDelivered(CONTACT_EMAIL_KIND, (id, outcome) =>
      this.contacts.markDelivered(id, outcome),
    );
  }

  /**
   * Accepts a contact message, its fields already checked by `ContactDto`'s rule (contracts'
   * `validateContactInput` with the sanitizer).
   * @param input the form's fields (untrimmed, as typed)
   * @param captcha the captcha widget's solution (a string), or the form without JavaScript's image
   *   challenge token and the code the visitor typed (CaptchaService.verifyImage)
   * @param clientIp the visitor's address (stored, and sent to reCAPTCHA/Turnstile)
   * @returns `{ message: "Thank you for your message! We'll be in touch soon." }`
   * @throws CaptchaFailedException 400 'Error: Please ensure you have completed the reCAPTCHA
   *   correctly.' when the captcha is missing, invalid, expired or reused (nothing stored)
   */
  async submit(
    input: ContactInput,
    captcha: string | undefined | ImageCaptchaAnswer,
    clientIp: string | null,
  ): Promise<MessageReply> {
    const message = sanitizePlainText(input.message);
    const human =
      typeof captcha === 'object'
        ? await this.captcha.verifyImage(captcha.token, captcha.answer)
        : await this.captcha.verify(captcha, clientIp);
    if (!human) throw new CaptchaFailedException();

    const row = {
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      email: input.email.trim(),
      phone: input.phoneNumber.trim(),
      website: input.website.trim(),
      message,
      clientIp,
    };
    // The message and its email are stored together: a crash cannot keep one without the other.
    await this.contacts.transaction(async (manager) => {
      const id = await this.contacts.insert(manager, row);
      await this.mail.queue(
        {
          to: this.config.mail.contactRecipient,
          replyTo: row.email,
          replyToName: `${row.firstName} ${row.lastName}`,
          subject: `Contact form: message from ${row.firstName} ${row.lastName}`,
          text: [
            `First name: ${row.firstName}`,
            `Last name: ${row.lastName}`,
            `Email: ${row.email}`,
            `Phone: ${phoneLine(row.phone, input.country || DEFAULT_COUNTRY)}`,
            `Website: ${row.website}`,
            '',
            'Message:',
            row.message,
          ].join('\n'),
        },
        { kind: CONTACT_EMAIL_KIND, id },
        manager,
      );
    });
    this.mail.wake();
    return { message: MESSAGES.contactSuccess };
  }
}

/**
 * The phone as typed, followed by its international format when that differs
 * (`(415) 555-0134 (+1 415 555 0134)`), so the team can call a visitor from any country.
 */
function phoneLine(typed: string, country: string): string {
  const international = internationalPhone(typed, country);
  return international && international !== typed ? `${typed} (${international})` : typed;
}
