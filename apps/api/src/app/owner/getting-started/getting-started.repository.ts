import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { GettingStarted } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';

interface ChecklistSqlRow {
  discount: boolean;
  members: boolean;
  billing: boolean;
  links: boolean;
  dismissed: boolean;
}

/**
 * The 'Getting started' checklist's facts (docs/product.md#getting-started), read in ONE statement
 * from the data each step is about; only `businesses.getting_started_dismissed_at` (migration
 * MemberDefaults) is its own. It reads, never writes, the tables of other modules: `members`,
 * `referral_links`, `mindbody_integrations`, `stripe_member_integrations` (each `EXISTS` stops at the first row of the
 * business, served by its business-led index). TENANCY: every method takes the `BusinessScope`
 * first and every part of every statement filters on its business.
 */
@Injectable()
export class GettingStartedRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The scope's checklist (nothing done, not dismissed, when the business is gone). */
  async find({ businessId }: BusinessScope): Promise<GettingStarted> {
    const rows: ChecklistSqlRow[] = await this.dataSource.query(
      `SELECT b.default_discount_cents IS NOT NULL AS discount,
         EXISTS (SELECT 1 FROM members m WHERE m.business_id = b.id) AS members,
         (EXISTS (SELECT 1 FROM mindbody_integrations i WHERE i.business_id = b.id AND i.stage >= 2)
           OR EXISTS (SELECT 1 FROM stripe_member_integrations s WHERE s.business_id = b.id)) AS billing,
         EXISTS (SELECT 1 FROM referral_links l WHERE l.business_id = b.id AND ${liveReferralLink()}) AS links,
         b.getting_started_dismissed_at IS NOT NULL AS dismissed
       FROM businesses b WHERE b.id = $1`,
      [businessId],
    );
    const row = rows[0];
    return {
      steps: {
        discount: row?.discount === true,
        members: row?.members === true,
        billing: row?.billing === true,
        links: row?.links === true,
      },
      dismissed: row?.dismissed === true,
    };
  }

  /** Hides (`dismissed` true: now) or shows again (false) the scope's checklist. */
  async setDismissed({ businessId }: BusinessScope, dismissed: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE businesses SET getting_started_dismissed_at = CASE WHEN $2::boolean
         THEN COALESCE(getting_started_dismissed_at, now()) END
       WHERE id = $1`,
      [businessId, dismissed],
    );
  }
}
