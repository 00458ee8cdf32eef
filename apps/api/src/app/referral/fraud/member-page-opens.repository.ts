import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BusinessScope } from '../../platform/database/business-scope';

/**
 * The only way to `member_page_opens` (migration FraudSignals): that a member's page was opened
 * from a client address, kept as a keyed digest only. TENANCY: every method takes the
 * `BusinessScope` first and every statement filters on its business. The public join reads the
 * table inside its own statement (`ReferralLinksRepository.join`).
 */
@Injectable()
export class MemberPageOpensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records (or refreshes) one opening of a member's page from a client digest, and deletes the
   * business's openings older than `retentionDays`, in ONE statement.
   * @param clientDigest HMAC-SHA-256 of the client address (32 bytes)
   * @returns false when the member is not in this business (nothing written)
   */
  async record(
    { businessId }: BusinessScope,
    memberId: string,
    clientDigest: Buffer,
    retentionDays: number,
  ): Promise<boolean> {
    const [{ recorded }] = (await this.dataSource.query(
      `WITH swept AS (
         DELETE FROM member_page_opens
         WHERE business_id = $1 AND opened_at < now() - make_interval(days => $4)
       ), opened AS (
         INSERT INTO member_page_opens (business_id, member_id, client_digest)
         SELECT m.business_id, m.id, $3 FROM members m WHERE m.business_id = $1 AND m.id = $2
         ON CONFLICT (member_id, client_digest) DO UPDATE SET opened_at = now()
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM opened) AS recorded`,
      [businessId, memberId, clientDigest, retentionDays],
    )) as { recorded: boolean }[];
    return recorded;
  }
}
