import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import {
  localeFormats,
  referrerRewardWording,
  type LocaleFormats,
  type ReferrerRewardOwed,
} from '@grove/contracts';
import { AuditLog } from '../../platform/audit/audit-log';
import type { BusinessScope } from '../../platform/database/business-scope';
import { RewardOwedCappedException, RewardOwedNotFoundException } from './rewards-owed.exceptions';
import { RewardsOwedRepository, type RewardOwedRecord } from './rewards-owed.repository';

const toOwed = (record: RewardOwedRecord, formats: LocaleFormats): ReferrerRewardOwed => ({
  id: record.id,
  referrerId: record.referrerId,
  referrerName: record.referrerName,
  branchId: record.branchId,
  branchName: record.branchName,
  wording: referrerRewardWording(record.reward, formats, 'owed') ?? '',
  capped: record.capped,
  countedAt: record.countedAt.toISOString(),
  honouredAt: record.honouredAt ? record.honouredAt.toISOString() : null,
});

/**
 * The rewards owed to referrers (issue 33 item 2, docs/product.md#referrer-reward 'Rewards to
 * honour'): one per branch that started counting under a one-off credit, a free period or a gift
 * (the database writes them, migration ReferrerRewardsOwed), for the owner to give by hand and
 * mark honoured. Every method takes the session's `BusinessScope`.
 */
@Injectable()
export class RewardsOwedService {
  constructor(
    private readonly owed: RewardsOwedRepository,
    private readonly audit: AuditLog,
  ) {}

  /** The rewards owed: to honour first (oldest first), then capped, then honoured (at most 200). */
  async list(scope: BusinessScope): Promise<ReferrerRewardOwed[]> {
    const [records, locale] = await Promise.all([this.owed.list(scope), this.owed.locale(scope)]);
    const formats = localeFormats(locale);
    return records.map((record) => toOwed(record, formats));
  }

  /**
   * The owner gave the reward (idempotent): marks it honoured and records 'reward.honoured' in
   * the audit log (the referrer, the reward's wording and the friend) in one transaction; a
   * second call changes and records nothing.
   * @throws RewardOwedNotFoundException 404 when the business has no such reward
   * @throws RewardOwedCappedException 409 when it is past the cap (nothing is owed)
   */
  async markHonoured(scope: BusinessScope, id: string): Promise<ReferrerRewardOwed> {
    if (!isUUID(id)) throw new RewardOwedNotFoundException();
    const formats = localeFormats(await this.owed.locale(scope));
    return this.owed.transaction(async (manager) => {
      const result = await this.owed.markHonoured(scope, manager, id);
      if (!result) throw new RewardOwedNotFoundException();
      const owed = toOwed(result.record, formats);
      if (result.record.capped) throw new RewardOwedCappedException();
      if (result.honoured)
        await this.audit.record(scope, manager, {
          kind: 'reward.honoured',
          member: { id: owed.referrerId, name: owed.referrerName },
          before: { honoured: false },
          after: { honoured: true, reward: owed.wording, friend: owed.branchName },
        });
      return owed;
    });
  }
}
