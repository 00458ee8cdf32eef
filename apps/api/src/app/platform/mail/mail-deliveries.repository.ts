import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Where one of Grove's own emails stands (`mail_deliveries.status`, migration MailDeliveries):
 * 'sending' claimed by an attempt just before SMTP; 'sent', 'outboxed' (no SMTP_URL), 'refused'
 * (the recipient is not one plain mailbox); 'uncertain': an attempt began the SMTP conversation
 * and its outcome was never recorded, so it is not sent again.
 */
export type MailDeliveryStatus = 'sending' | 'sent' | 'outboxed' | 'refused' | 'uncertain';

/**
 * The only way to `mail_deliveries`: one row per delivery of Grove's own email, keyed by its
 * pg-boss job's id (Grove's own mail has no business column, as `outbox_emails`).
 */
@Injectable()
export class MailDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims delivery `jobId` for this attempt ('sending', `claimed_at` now), committed on its own.
   * @returns true when claimed; else the status an earlier attempt left
   */
  async claim(jobId: string): Promise<true | MailDeliveryStatus> {
    const rows: { claimed: boolean; status: MailDeliveryStatus }[] = await this.dataSource.query(
      `WITH claimed AS (
         INSERT INTO mail_deliveries (job_id) VALUES ($1) ON CONFLICT (job_id) DO NOTHING
         RETURNING status)
       SELECT true AS claimed, status FROM claimed
       UNION ALL
       SELECT false, status FROM mail_deliveries WHERE job_id = $1 AND NOT EXISTS (SELECT 1 FROM claimed)`,
      [jobId],
    );
    const row = rows[0];
    if (!row) throw new Error(`mail delivery ${jobId}: neither claimed nor found`);
    return row.claimed ? true : row.status;
  }

  /** Takes a claim back (the row is deleted while still 'sending'): the next attempt claims it again. */
  async unclaim(jobId: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM mail_deliveries WHERE job_id = $1 AND status = 'sending'`,
      [jobId],
    );
  }

  /**
   * Records how a claimed delivery ended: `status`, or 'uncertain' (found still 'sending' by a later
   * attempt). Only a 'sending' row changes, or an 'uncertain' one to a known outcome.
   */
  async settle(jobId: string, status: Exclude<MailDeliveryStatus, 'sending'>): Promise<void> {
    await this.dataSource.query(
      `UPDATE mail_deliveries SET status = $2, settled_at = now()
        WHERE job_id = $1 AND (status = 'sending' OR (status = 'uncertain' AND $2 <> 'uncertain'))`,
      [jobId, status],
    );
  }

  /**
   * Every delivery still 'sending' `olderThanSeconds` after its claim (an attempt that never came
   * back, which no retry will settle) becomes 'uncertain', never sent again.
   * @param olderThanSeconds how long after its claim a row counts as abandoned (seconds)
   * @returns how many rows were settled
   */
  async settleAbandoned(olderThanSeconds: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH settled AS (
         UPDATE mail_deliveries SET status = 'uncertain', settled_at = now()
          WHERE status = 'sending' AND claimed_at < now() - make_interval(secs => $1)
          RETURNING job_id)
       SELECT job_id FROM settled`,
      [olderThanSeconds],
    );
    return rows.length;
  }
}
