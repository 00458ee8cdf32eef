import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { MemberEmailSettings } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';

interface SettingsSqlRow {
  member_email_friend_joined: boolean;
  member_email_branch_counting: boolean;
  member_email_branch_ended: boolean;
  member_email_welcome: boolean;
}

const COLUMNS = `member_email_friend_joined, member_email_branch_counting, member_email_branch_ended, member_email_welcome`;

const toSettings = (row: SettingsSqlRow): MemberEmailSettings => ({
  friendJoined: row.member_email_friend_joined,
  branchCounting: row.member_email_branch_counting,
  branchEnded: row.member_email_branch_ended,
  welcome: row.member_email_welcome,
});

/**
 * The business's member email settings (migration MemberEmailSettings: columns of `businesses`).
 * TENANCY: every method takes the `BusinessScope` first and reads or writes only its business.
 */
@Injectable()
export class MemberEmailSettingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The scope's settings; every email on when the business is gone (nothing is sent then anyway).
   * With `manager`, read in its transaction.
   */
  async get({ businessId }: BusinessScope, manager?: EntityManager): Promise<MemberEmailSettings> {
    const rows: SettingsSqlRow[] = await (manager ?? this.dataSource).query(
      `SELECT ${COLUMNS} FROM businesses WHERE id = $1`,
      [businessId],
    );
    return toSettings(
      rows[0] ?? {
        member_email_friend_joined: true,
        member_email_branch_counting: true,
        member_email_branch_ended: true,
        member_email_welcome: true,
      },
    );
  }

  /** Saves all four settings of the scope's business in `manager`'s transaction. @returns them as stored */
  async update(
    { businessId }: BusinessScope,
    manager: EntityManager,
    settings: MemberEmailSettings,
  ): Promise<MemberEmailSettings> {
    const rows: SettingsSqlRow[] = await manager.query(
      `WITH saved AS (
         UPDATE businesses SET member_email_friend_joined = $2, member_email_branch_counting = $3,
           member_email_branch_ended = $4, member_email_welcome = $5
         WHERE id = $1 RETURNING ${COLUMNS}
       )
       SELECT * FROM saved`,
      [
        businessId,
        settings.friendJoined,
        settings.branchCounting,
        settings.branchEnded,
        settings.welcome,
      ],
    );
    return toSettings(rows[0] as SettingsSqlRow);
  }
}
