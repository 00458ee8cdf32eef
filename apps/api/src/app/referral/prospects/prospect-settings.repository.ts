import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { ProspectSettings } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';

/**
 * The business's prospect settings (migration ProspectAutoApprove: `businesses.auto_approve_prospects`).
 * TENANCY: every method takes the `BusinessScope` first and reads or writes only its business.
 */
@Injectable()
export class ProspectSettingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The scope's settings (automatic approval off when the business is gone); with `manager`, read
   * in its transaction.
   */
  async get({ businessId }: BusinessScope, manager?: EntityManager): Promise<ProspectSettings> {
    const rows: { auto_approve_prospects: boolean }[] = await (manager ?? this.dataSource).query(
      `SELECT auto_approve_prospects FROM businesses WHERE id = $1`,
      [businessId],
    );
    return { autoApprove: rows[0]?.auto_approve_prospects === true };
  }

  /** Saves the scope's settings in `manager`'s transaction. @returns them as stored */
  async update(
    { businessId }: BusinessScope,
    manager: EntityManager,
    settings: ProspectSettings,
  ): Promise<ProspectSettings> {
    const rows: { auto_approve_prospects: boolean }[] = await manager.query(
      `WITH saved AS (
         UPDATE businesses SET auto_approve_prospects = $2 WHERE id = $1 RETURNING auto_approve_prospects
       )
       SELECT auto_approve_prospects FROM saved`,
      [businessId, settings.autoApprove],
    );
    return { autoApprove: rows[0]?.auto_approve_prospects === true };
  }
}
