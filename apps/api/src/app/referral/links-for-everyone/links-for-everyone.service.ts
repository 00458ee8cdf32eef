import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ReferralLinkRunDto } from './dto/referral-link-run.dto';
import type { ReferralLinkSettingsDto } from './dto/referral-link-settings.dto';
import { AuditLog } from '../../platform/audit/audit-log';
import type { BusinessScope } from '../../platform/database/business-scope';
import { writeBatches } from '../../platform/database/write-batches';
import { BackgroundRun } from '../../platform/jobs/background-run';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MembershipEvents } from '../../membership/events/membership-events';
import { LifecycleService } from '../../membership/lifecycle/lifecycle.service';
import { newReferralCode } from '../referrals/referral-code';
import { LinksForEveryoneRepository, type CreatedLink } from './links-for-everyone.repository';

/** The pg-boss queue of 'Create links for all members without one'. */
export const LINKS_FOR_ALL_QUEUE = 'referral-links.all';

/** Members given links per transaction (and per progress step) of a run. */
export const LINKS_BATCH_SIZE = 500;

/**
 * Links for everyone (issue 14 part 4, docs/product.md#referral-links): 'Create links for all
 * members without one' as a background run with progress, and the business setting that gives
 * every new member a link at once. Links are the same live links 'Create link' makes
 * (unguessable codes, `referral_links`), one per member at most.
 *
 * The flows that add members (manual add and approval in `MembersService`, the CSV import, the
 * Mindbody import and sync, the Stripe member import) never call this class: they announce
 * 'members.added' (inside the transaction that inserted them: {@link linkNewMembers}) or
 * 'members.bulk-added' (after a bulk write: {@link linkMembersAddedSince}) on `MembershipEvents`,
 * which this class listens to. The bulk writers' page statements give their new members their
 * links themselves (`automaticLinksSql`); the pass after them finds members added meanwhile.
 */
@Injectable()
export class LinksForEveryoneService implements OnModuleInit {
  private readonly run: BackgroundRun;

  constructor(
    private readonly repository: LinksForEveryoneRepository,
    jobs: JobsService,
    private readonly lifecycle: LifecycleService,
    events: MembershipEvents,
    private readonly audit: AuditLog,
  ) {
    this.run = new BackgroundRun(jobs, LINKS_FOR_ALL_QUEUE, repository.runs);
    // Listens from construction, before any module's `onModuleInit` starts job workers that emit.
    events.on('members.added', ({ scope, manager, memberIds }) =>
      this.linkNewMembers(scope, manager, memberIds),
    );
    events.on('members.bulk-added', ({ scope, since }) => this.linkMembersAddedSince(scope, since));
  }

  async onModuleInit(): Promise<void> {
    // An attempt that failed is retried and continues where it stopped (members given a link
    // are no longer picked).
    await this.run.register((scope, _run, stopping) => this.runAll(scope, stopping));
  }

  /** The latest run (or 'idle') and how many members have no live link now. */
  async status(scope: BusinessScope): Promise<ReferralLinkRunDto> {
    const [run, withoutLink] = await Promise.all([
      this.run.state(scope),
      this.repository.countWithoutLink(scope),
    ]);
    return { ...run, withoutLink };
  }

  /**
   * 'Create links for all members without one': starts a background run over the members without
   * a live link (idempotent: while a run is going, another click starts nothing; when every
   * member has a link, the run is done at once and creates nothing).
   * @returns the run's state right after starting it (poll {@link status} for progress)
   */
  async startAll(scope: BusinessScope): Promise<ReferralLinkRunDto> {
    await this.run.start(scope, await this.repository.countWithoutLink(scope), {});
    return this.status(scope);
  }

  /**
   * The run's work: batches of {@link LINKS_BATCH_SIZE} members without a live link, oldest
   * first, each batch's links and progress in one transaction, until none is left (the run is
   * then ended 'done' by `BackgroundRun`).
   * @throws when `stopping` is aborted (the job is retried and carries on) or a write fails
   */
  async runAll(scope: BusinessScope, stopping?: AbortSignal): Promise<void> {
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      stopping?.throwIfAborted();
      const batch = await this.repository.membersWithoutLink(scope, {
        limit: LINKS_BATCH_SIZE,
        after,
      });
      if (batch.length === 0) break;
      after = batch[batch.length - 1] ?? null;
      const ids = batch.map((member) => member.id);
      await this.repository.transaction(async (manager) => {
        const created = await this.create(scope, manager, ids, 'all_members');
        await this.repository.runs.recordProgress(scope, manager, batch.length, created.length);
      });
    }
  }

  /** The automatic-link setting. */
  async settings(scope: BusinessScope): Promise<ReferralLinkSettingsDto> {
    return { autoCreate: await this.repository.autoLinksOn(scope) };
  }

  /**
   * Turns automatic links for new members on or off, recording the change in the audit log
   * ('Referral links for new members', docs/product.md#audit-log) in one transaction.
   */
  updateSettings(
    scope: BusinessScope,
    settings: ReferralLinkSettingsDto,
  ): Promise<ReferralLinkSettingsDto> {
    return this.audit.changeSetting(
      scope,
      'Referral links for new members',
      async (manager) => ({ autoCreate: await this.repository.autoLinksOn(scope, manager) }),
      async (manager) => {
        await this.repository.setAutoLinks(scope, manager, settings.autoCreate);
        return { autoCreate: await this.repository.autoLinksOn(scope, manager) };
      },
    );
  }

  /**
   * Gives members just added a referral link when the business's automatic-link setting is on
   * (nothing otherwise), inside the transaction that added them. Members that already have a
   * live link keep it. For every flow that adds members: manual add, approval, CSV import. The
   * links are written {@link LINKS_BATCH_SIZE} members per statement, so a 10,000-row import's
   * links are twenty short statements, never one that nears the statement timeout.
   * @param memberIds members of this business, just inserted by `manager`'s transaction
   * @returns the links created (empty when the setting is off)
   */
  async linkNewMembers(
    scope: BusinessScope,
    manager: EntityManager,
    memberIds: string[],
  ): Promise<CreatedLink[]> {
    if (memberIds.length === 0 || !(await this.repository.autoLinksOn(scope, manager))) return [];
    const created: CreatedLink[] = [];
    for (const batch of writeBatches(memberIds, LINKS_BATCH_SIZE))
      created.push(...(await this.create(scope, manager, batch, 'automatic')));
    return created;
  }

  /**
   * After a bulk write of members (the Mindbody import or sync): when the automatic-link setting
   * is on, gives every member added at or after `since` (database time, {@link clock}) that has
   * no live link one, in batches.
   * @returns how many links were created
   */
  async linkMembersAddedSince(scope: BusinessScope, since: Date): Promise<number> {
    if (!(await this.repository.autoLinksOn(scope))) return 0;
    let created = 0;
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      const batch = await this.repository.membersWithoutLink(scope, {
        limit: LINKS_BATCH_SIZE,
        after,
        since,
      });
      if (batch.length === 0) return created;
      after = batch[batch.length - 1] ?? null;
      const ids = batch.map((member) => member.id);
      created += (
        await this.repository.transaction((manager) =>
          this.create(scope, manager, ids, 'automatic'),
        )
      ).length;
    }
  }

  /** The database's current time, to pass to {@link linkMembersAddedSince} before a bulk write. */
  clock(): Promise<Date> {
    return this.repository.now();
  }

  /**
   * Creates the missing links of `memberIds` in `manager`'s transaction and records, in it, a
   * `link_created` fact for each (docs/architecture.md#lifecycle-facts) and a 'link.created' audit
   * entry for each (member, code, no expiry, and `source`: 'all_members' for 'Create links for all
   * members', 'automatic' for a new member's link; docs/product.md#audit-log), in one statement.
   */
  private async create(
    scope: BusinessScope,
    manager: EntityManager,
    memberIds: string[],
    source: 'all_members' | 'automatic',
  ): Promise<CreatedLink[]> {
    const created = await this.repository.createMissing(
      scope,
      manager,
      memberIds,
      memberIds.map(() => newReferralCode()),
    );
    await this.lifecycle.recordFacts(
      scope,
      created.map(({ linkId, memberId }) => ({
        kind: 'link_created',
        eventKey: `link_created:${linkId}`,
        memberId,
        referralLinkId: linkId,
      })),
      manager,
    );
    await this.audit.recordMany(
      scope,
      manager,
      created.map(({ memberId, memberName, code }) => ({
        kind: 'link.created',
        member: { id: memberId, name: memberName },
        after: { code, expiresAt: null, source },
      })),
    );
    return created;
  }
}
