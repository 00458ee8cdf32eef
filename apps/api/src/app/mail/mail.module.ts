import { Module } from '@nestjs/common';
import { MailService } from './mail.service';

/** Outgoing email through pg-boss jobs (SMTP or the `outbox_emails` table); used by contact and leads. */
@Module({ providers: [MailService], exports: [MailService] })
export class MailModule {}
