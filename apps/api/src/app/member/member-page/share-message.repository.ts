import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusinessScope } from '../../platform/database/business-scope';

/**
 * The business's share message (migration ShareMessage: `businesses.share_message`, NULL until
 * the owner writes one; docs/product.md#share-message). TENANCY: every method takes the
 * `BusinessScope` first and reads or writes only its business.
 */
@Injectable()
export class ShareMessageRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The scope's message as the owner wrote it, or null (never written, or no such business); with
   * `manager`, read in its transaction.
   */
  async get({ businessId }: BusinessScope, manager?: EntityManager): Promise<string | null> {
    const rows: { share_message: string | null }[] = await (manager ?? this.dataSource).query(
      `SELECT share_message FROM businesses WHERE id = $1`,
      [businessId],
    );
    return rows[0]?.share_message ?? null;
  }

  /** Saves the (already validated and trimmed) message in `manager`'s transaction. @returns it as stored */
  async save(
    { businessId }: BusinessScope,
    manager: EntityManager,
    message: string,
  ): Promise<string | null> {
    const rows: { share_message: string | null }[] = await manager.query(
      `WITH saved AS (UPDATE businesses SET share_message = $2 WHERE id = $1 RETURNING share_message)
       SELECT share_message FROM saved`,
      [businessId, message],
    );
    return rows[0]?.share_message ?? null;
  }
}
