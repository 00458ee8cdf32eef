import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { BranchSettings } from '@grove/contracts';
import type { EntityManager } from 'typeorm';
import { AuditLog } from '../../platform/audit/audit-log';
import { errorMessage } from '../../platform/common/error-message';
import { jobScope, type BusinessScope } from '../../platform/database/business-scope';
import { JobsService } from '../../platform/jobs/jobs.service';
import { LifecycleService } from '../lifecycle/lifecycle.service';
import { MembershipEvents } from '../events/membership-events';
import {
  BranchQualificationRepository,
  type BranchChange,
  type BranchChanges,
} from './branch-qualification.repository';

/** The queue of the scheduled refresh of every business with a branch to start, lapse or resume. */
export const BRANCH_REFRESH_QUEUE = 'branches.refresh';

/** When the refresh job runs (pg-boss cron, UTC): at minute 7 of every hour. */
export const BRANCH_REFRESH_CRON = '7 * * * *';

/**
 * When a branch lowers its referrer's price (docs/product.md#branch-qualification): the business's
 * rule, and the refresh that applies it. A member becomes a branch pending or counting by the
 * database's own rule (trigger of migration BranchCountingRule, whichever flow adds it); `refresh`
 * then, per business:
 * - starts every pending branch the rule now lets count (approval: at once; N days: once
 *   `created_at + N days` has passed, counting since that moment; first payment: a Mindbody friend
 *   from `mindbody_first_paid_at`, a friend added by hand at once);
 * - lapses a counting branch whose Mindbody membership has ended or is suspended, and resumes it
 *   when it counts again (the Mindbody side calls `refresh` after changing
 *   `mindbody_cancelled_at` / `mindbody_suspended_at`);
 * - writes the referrers' price ledger lines ('branch_counting', 'branch_lapsed'; only where the
 *   price moved), and after commit queues "{friend} is now your branch: your price is now $X"
 *   (once per branch) or "{friend}'s membership ended: your price is back to $Y" where it moved
 *   (a Mindbody-managed referrer's price moves with the sync that writes it to Mindbody).
 * A scheduled pg-boss job (`BRANCH_REFRESH_QUEUE`, hourly) refreshes every business with
 * something to do, so an N-day branch starts counting within the hour it qualifies.
 */
@Injectable()
export class BranchQualificationService implements OnModuleInit {
  private readonly logger = new Logger(BranchQualificationService.name);

  constructor(
    private readonly repository: BranchQualificationRepository,
    private readonly lifecycle: LifecycleService,
    private readonly events: MembershipEvents,
    private readonly jobs: JobsService,
    private readonly audit: AuditLog,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<object>(
      { name: BRANCH_REFRESH_QUEUE, policy: 'singleton', retryLimit: 1 },
      async (_data, _job, stopping) => {
        await this.refreshAll(new Date(), stopping);
      },
    );
    await this.jobs.schedule(BRANCH_REFRESH_QUEUE, BRANCH_REFRESH_CRON);
  }

  /** The business's rule ('approval' by default). */
  settings(scope: BusinessScope): Promise<BranchSettings> {
    return this.repository.settings(scope);
  }

  /**
   * Saves the business's rule, then refreshes its branches: the new rule applies to branches
   * still pending (one the new rule lets count starts now); a branch already counting keeps
   * counting. `settings` is already valid (`validateBranchSettings`). The change is recorded in
   * the audit log with the save ('When a branch counts', docs/product.md#audit-log).
   * @returns the rule as stored
   */
  async saveSettings(scope: BusinessScope, settings: BranchSettings): Promise<BranchSettings> {
    const saved = await this.audit.changeSetting(
      scope,
      'When a branch counts',
      (manager) => this.repository.settings(scope, manager),
      (manager) => this.repository.saveSettings(scope, manager, settings),
    );
    await this.refresh(scope);
    return saved;
  }

  /**
   * Applies the business's rule to its branches as of `now` in one transaction (under the
   * business's advisory lock, the referrers' rows locked), with the ledger lines of every price
   * that moved and the emails telling of them (queued in it, so a crash after the commit cannot
   * lose them; the member-email worker finds them at its next poll). Idempotent: a second call
   * with the same `now` changes nothing and sends nothing.
   * @param now the clock (a test passes a later one)
   * @returns what changed
   */
  async refresh(scope: BusinessScope, now: Date = new Date()): Promise<BranchChanges> {
    const at = now.toISOString();
    return this.repository.inBusinessLock(scope, async (manager) => {
      const locked = await this.repository.lockReferrers(scope, manager, now);
      const none: BranchChanges = { started: [], lapsed: [], resumed: [] };
      if (locked.size === 0) return none;
      const changes = await this.repository.applyRule(scope, manager, [...locked.keys()], now);
      const lines: {
        change: BranchChange;
        reason: 'branch_counting' | 'branch_lapsed';
        cause: string;
      }[] = [
        ...changes.lapsed.map((change) => ({
          change,
          reason: 'branch_lapsed' as const,
          cause: `branch_lapsed:${change.branchId}:${at}`,
        })),
        ...changes.resumed.map((change) => ({
          change,
          reason: 'branch_counting' as const,
          cause: `branch_resumed:${change.branchId}:${at}`,
        })),
        ...changes.started.map((change) => ({
          change,
          reason: 'branch_counting' as const,
          cause: `branch_counting:${change.branchId}`,
        })),
      ];
      for (const { change, reason, cause } of lines) {
        await this.lifecycle.recordEffectivePrices(
          scope,
          [change.referrerId],
          { reason, branchId: change.branchId, cause },
          manager,
        );
      }
      const after = await this.lifecycle.effectivePrices(scope, [...locked.keys()], manager);
      await this.notify(scope, manager, changes, locked, after);
      return changes;
    });
  }

  /**
   * Refreshes every business with a branch to start, lapse or resume as of `now` (the scheduled
   * job); a business that fails is logged and the others go on.
   * @returns how many businesses were refreshed
   */
  async refreshAll(now: Date = new Date(), stopping?: AbortSignal): Promise<number> {
    const businessIds = await this.repository.businessesToRefresh(now);
    let refreshed = 0;
    for (const businessId of businessIds) {
      stopping?.throwIfAborted();
      try {
        await this.refresh(jobScope({ businessId }), now);
        refreshed += 1;
      } catch (error) {
        this.logger.error(`refreshing the branches of a business failed: ${errorMessage(error)}`);
      }
    }
    return refreshed;
  }

  /**
   * Queues the emails of a refresh's changes in its transaction (`manager`), each for a referrer
   * whose price is known and moved (a Mindbody-managed referrer's price moves when the sync has
   * written it to Mindbody, not here).
   */
  private async notify(
    scope: BusinessScope,
    manager: EntityManager,
    changes: BranchChanges,
    before: Map<string, number | null>,
    after: Map<string, number | null>,
  ): Promise<void> {
    for (const change of [...changes.started, ...changes.resumed]) {
      const priceBeforeCents = before.get(change.referrerId);
      const priceNowCents = after.get(change.referrerId);
      if (priceBeforeCents == null || priceNowCents == null || priceBeforeCents === priceNowCents)
        continue;
      await this.events.emit('branch.counting', {
        scope,
        ...change,
        priceBeforeCents,
        priceNowCents,
        manager,
      });
    }
    for (const change of changes.lapsed) {
      const priceNowCents = after.get(change.referrerId);
      if (priceNowCents == null || priceNowCents === before.get(change.referrerId)) continue;
      // Lapsed: its Mindbody membership ended or was suspended.
      await this.events.emit('branch.ended', {
        scope,
        ...change,
        priceNowCents,
        reason: 'ended',
        manager,
      });
    }
  }
}
