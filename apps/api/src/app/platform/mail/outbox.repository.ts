import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OutgoingEmail } from './mail.service';

/** Keeps one email in the outbox. */
const INSERT_OUTBOX_EMAIL = `INSERT INTO outbox_emails ("to", reply_to, subject, text, html, from_name, headers)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`;

/**
 * The only way to the `outbox_emails` table: where emails go when SMTP_URL is not configured
 * (Grove's own mail, no business column).
 */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores one email (`replyTo`, `html`, `fromName`, `headers` absent: NULL); the reply-to as
   * `Name <mailbox>` when it has a display name, as a mail program would show it.
   */
  async insert(email: OutgoingEmail): Promise<void> {
    const replyTo =
      email.replyTo && email.replyToName
        ? `${email.replyToName} <${email.replyTo}>`
        : (email.replyTo ?? null);
    await this.dataSource.query(INSERT_OUTBOX_EMAIL, [
      email.to,
      replyTo,
      email.subject,
      email.text,
      email.html ?? null,
      email.fromName ?? null,
      email.headers ? JSON.stringify(email.headers) : null,
    ]);
  }
}
