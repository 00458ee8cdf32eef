import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { runTransaction } from '../../platform/database/transaction';
import type { LeadInput } from '@grove/contracts';
import type { DeliveryOutcome } from '../../platform/mail/mail.service';

/** The only way to the `leads` table (public visitors: no business, no tenancy). */
@Injectable()
export class LeadsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a lead (delivery 'pending') inside `manager`'s transaction. @returns its id */
  async insert(manager: EntityManager, lead: LeadInput, clientIp: string | null): Promise<string> {
    const [{ id }] = (await manager.query(
      `INSERT INTO leads (full_name, email, phone, company, client_ip) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [lead.fullName, lead.email, lead.phone, lead.company, clientIp],
    )) as { id: string }[];
    return id;
  }

  /** Records that the lead's notification went out ('sent') or into the outbox ('outboxed'). */
  async markDelivered(id: string, outcome: DeliveryOutcome): Promise<void> {
    await this.dataSource.query(
      `UPDATE leads SET delivery = $2, delivered_at = now() WHERE id = $1`,
      [id, outcome],
    );
  }

  /** Runs `work` in one transaction (`runTransaction`: it may run twice on a conflict). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
