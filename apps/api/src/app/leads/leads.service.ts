import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MESSAGES, type LeadRequest, type MessageReply } from '@grove/contracts';
import { AppConfig } from '../common/app-config';
import { MailService } from '../mail/mail.service';
import { LeadsRepository } from './leads.repository';

/** `source.kind` of lead notification emails. */
const LEAD_EMAIL_KIND = 'lead';

/**
 * Leads from the landing page's 'Learn More' pop-up (SPEC §2 Landing page; the old form's submit
 * did nothing, Grove keeps the lead: DESIGN preamble). Stores it in `leads` and queues a
 * notification email to CONTACT_RECIPIENT (reply-to the lead).
 */
@Injectable()
export class LeadsService implements OnModuleInit {
  constructor(
    private readonly leads: LeadsRepository,
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.mail.onDelivered(LEAD_EMAIL_KIND, (id, outcome) => this.leads.markDelivered(id, outcome));
  }

  /**
   * @param lead an already validated and trimmed lead (see LeadDto)
   * @returns `{ message: "Thanks! We'll be in touch soon." }`
   */
  async capture(lead: LeadRequest, clientIp: string | null): Promise<MessageReply> {
    const id = await this.leads.insert(lead, clientIp);
    await this.mail.queue(
      {
        to: this.config.mail.contactRecipient,
        replyTo: `${lead.fullName} <${lead.email}>`,
        subject: `New lead: ${lead.fullName} (${lead.company})`,
        text: [`Full name: ${lead.fullName}`, `Email: ${lead.email}`, `Phone: ${lead.phone}`, `Company: ${lead.company}`].join('\n'),
      },
      { kind: LEAD_EMAIL_KIND, id },
    );
    return { message: MESSAGES.leadSuccess };
  }
}
