import { Module } from '@nestjs/common';
import { MailService } from './mail.service';
import { OutboxRepository } from './outbox.repository';
import { MailDeliveriesRepository } from './mail-deliveries.repository';

/** Outgoing email through pg-boss jobs (SMTP or the `outbox_emails` table); used by contact and leads. */
@Module({
  providers: [MailService, OutboxRepository, MailDeliveriesRepository],
  exports: [MailService],
})
export class MailModule {}
