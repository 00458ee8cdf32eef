import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { runTransaction } from '../../platform/database/transaction';
import type { DeliveryOutcome } from '../../platform/mail/mail.service';

/** A contact message to store; `message` is already sanitized. */
export interface NewContactMessage {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  website: string;
  message: string;
  clientIp: string | null;
}

/**
 * The only way to the `contact_messages` table. Contact messages come from public visitors and
 * belong to no business, so there is no tenancy here.
 */
@Injectable()
export class ContactRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a message (delivery 'pending') inside `manager`'s transaction. @returns its id */
  async insert(manager: EntityManager, row: NewContactMessage): Promise<string> {
    const [{ id }] = (await manager.query(
      `INSERT INTO contact_messages (first_name, last_name, email, phone, website, message, client_ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [row.firstName, row.lastName, row.email, row.phone, row.website, row.message, row.clientIp],
    )) as { id: string }[];
    return id;
  }

  /** Records that the message's email went out ('sent') or into the outbox ('outboxed'). */
  async markDelivered(id: string, outcome: DeliveryOutcome): Promise<void> {
    await this.dataSource.query(
      `UPDATE contact_messages SET delivery = $2, delivered_at = now() WHERE id = $1`,
      [id, outcome],
    );
  }

  /** Runs `work` in one transaction (`runTransaction`: it may run twice on a conflict). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
