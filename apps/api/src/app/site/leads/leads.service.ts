import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  DEFAULT_COUNTRY,
  internationalPhone,
  MESSAGES,
  type LeadInput,
  type MessageReply,
} from '@grove/contracts';
import { CaptchaFailedException } from '../../platform/captcha/captcha.exceptions';
import { CaptchaService } from '../../platform/captcha/captcha.service';
import { AppConfig } from '../../platform/config/app-config';
import { MailService } from '../../platform/mail/mail.service';
import { LeadsRepository } from './leads.repository';

/** `source.kind` of lead notification emails. */
const LEAD_EMAIL_KIND = 'lead';

/**
 * Leads from the landing page's 'Learn More' pop-up (docs/product.md#landing-page Landing page; the old form's submit
 * did nothing, Grove keeps the lead: DESIGN preamble). Checks the fields, then the contact form's
 * captcha (`CaptchaService`: altcha, reCAPTCHA or Turnstile), stores the lead in `leads` and
 * queues a notification email to CONTACT_RECIPIENT (reply-to the lead).
 */
@Injectable()
export class LeadsService implements OnModuleInit {
  constructor(
    private readonly captcha: CaptchaService,
    private readonly leads: LeadsRepository,
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.mail.onDelivered(LEAD_EMAIL_KIND, (id, outcome) => this.leads.markDelivered(id, outcome));
  }

  /**
   * Accepts a lead, its fields already checked by `LeadDto`'s rule (contracts'
   * `validateLeadInput`, the same function the pop-up uses), and stores it trimmed.
   * @param input the form's fields (untrimmed, as typed)
   * @param captchaToken the captcha widget's solution
   * @param clientIp the visitor's address (stored, and sent to reCAPTCHA/Turnstile)
   * @returns `{ message: "Thanks! We'll be in touch soon." }`
   * @throws CaptchaFailedException 400 'Error: Please ensure you have completed the reCAPTCHA
   *   correctly.' when the captcha is missing, invalid, expired or reused; nothing stored or sent
   */
  async capture(
    input: LeadInput,
    captchaToken: string | undefined,
    clientIp: string | null,
  ): Promise<MessageReply> {
    if (!(await this.captcha.verify(captchaToken, clientIp))) throw new CaptchaFailedException();
    const country = input.country || DEFAULT_COUNTRY;
    const typed = input.phone.trim();
    const international = internationalPhone(typed, country);
    const lead: LeadInput = {
      fullName: input.fullName.trim(),
      email: input.email.trim(),
      phone: typed,
      company: input.company.trim(),
    };
    // The lead and its email are stored together: a crash cannot keep one without the other.
    await this.leads.transaction(async (manager) => {
      const id = await this.leads.insert(manager, lead, clientIp);
      await this.mail.queue(
        {
          to: this.config.mail.contactRecipient,
          replyTo: lead.email,
          replyToName: lead.fullName,
          subject: `New lead: ${lead.fullName} (${lead.company})`,
          text: [
            `Full name: ${lead.fullName}`,
            `Email: ${lead.email}`,
            // As typed, then in international format: the team can call a visitor from any country.
            `Phone: ${international && international !== typed ? `${typed} (${international})` : typed}`,
            `Company: ${lead.company}`,
          ].join('\n'),
        },
        { kind: LEAD_EMAIL_KIND, id },
        manager,
      );
    });
    this.mail.wake();
    return { message: MESSAGES.leadSuccess };
  }
}
