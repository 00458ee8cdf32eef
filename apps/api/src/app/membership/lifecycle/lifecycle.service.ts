import { Injectable } from '@nestjs/common';
import type { BusinessScope } from '../../platform/database/business-scope';
import {
  LifecycleRepository,
  type LifecycleFact,
  type PriceCause,
  type PriceChange,
  type SqlRunner,
} from './lifecycle.repository';

export type {
  FactKind,
  FactSource,
  LifecycleFact,
  PriceCause,
  PriceChange,
  PriceChangeReason,
  SqlRunner,
} from './lifecycle.repository';

/**
 * Records what happened in a business as it happens (issue 14; docs/architecture.md#lifecycle-facts):
 * lifecycle facts, join page visits and the price ledger. Pass the transaction of the change
 * (`manager` of `runTransaction`, or a QueryRunner) so that a fact exists if and only if its change
 * was committed. Every write is idempotent by `event_key` (`ON CONFLICT DO NOTHING`): a replay of
 * the same event writes nothing. Event keys and reasons: `FactKind`, `PriceChangeReason`.
 */
@Injectable()
export class LifecycleService {
  constructor(private readonly repository: LifecycleRepository) {}

  /**
   * Records facts of the scope's business.
   * @param runner the change's transaction (default: a statement of its own)
   * @returns how many facts were new (0 for a replay)
   */
  recordFacts(scope: BusinessScope, facts: LifecycleFact[], runner?: SqlRunner): Promise<number> {
    return this.repository.insertFacts(scope, facts, runner);
  }

  /**
   * Records price ledger lines as given (old and new price computed by the caller, cents). Prefer
   * `recordEffectivePrices` where the member rows are at hand: it computes both in SQL.
   * @returns how many lines were new
   */
  recordPriceChanges(
    scope: BusinessScope,
    changes: PriceChange[],
    runner?: SqlRunner,
  ): Promise<number> {
    return this.repository.insertPriceChanges(scope, changes, runner);
  }

  /**
   * After a change that may move members' effective prices (a branch added or removed, a price or
   * discount edit, a member added or ended), writes one ledger line per member of `memberIds`
   * whose price now differs from its ledger's last line, old → new computed in one statement
   * (`LifecycleRepository.insertEffectivePrices`). Call it inside the change's transaction, after
   * the change, with the members locked.
   * @returns how many lines were written (0 when no price moved)
   */
  recordEffectivePrices(
    scope: BusinessScope,
    memberIds: string[],
    cause: PriceCause,
    runner?: SqlRunner,
  ): Promise<number> {
    return this.repository.insertEffectivePrices(scope, memberIds, cause, runner);
  }

  /**
   * The effective prices of the scope's members `ids` (cents, as the ledger and the emails show
   * them; null while a Mindbody price is unknown), by id; read inside `runner`'s transaction when
   * given.
   */
  effectivePrices(
    scope: BusinessScope,
    ids: string[],
    runner?: SqlRunner,
  ): Promise<Map<string, number | null>> {
    return this.repository.effectivePrices(scope, ids, runner);
  }

  /**
   * Counts one opening of the join page of link `linkId` (business `businessId`, today in UTC):
   * one UPSERT, no personal data. Public: the caller read both ids from a live code.
   */
  countJoinPageVisit(linkId: string, businessId: string): Promise<void> {
    return this.repository.countJoinPageVisit(linkId, businessId);
  }
}
