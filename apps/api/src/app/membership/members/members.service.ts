import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import {
  emailKey,
  type MemberRow,
  type MembersPage,
  type ReferralsToMatch,
} from '@grove/contracts';
import type { CreateMemberDto, MemberFieldsDto } from './dto/create-member.dto';
import { DEFAULT_PAGE_SIZE } from '../../platform/common/page-query.dto';
import type { ListMembersQueryDto } from './dto/list-members-query.dto';
import type { UpdateMemberDto } from './dto/update-member.dto';
import { toMemberRow } from './member-row';
import type { MemberEntity } from './member.entity';
import type { BusinessScope } from '../../platform/database/business-scope';
import { MembersRepository, type MemberChanges } from './members.repository';
import { MembershipEvents } from '../events/membership-events';
import { LifecycleService, type FactSource } from '../lifecycle/lifecycle.service';
import {
  AlreadyABranchException,
  DuplicateMemberException,
  ManagedMemberLockedException,
  MemberNotFoundException,
  NotABranchException,
  OwnReferrerException,
  ReferralLoopException,
} from './members.exceptions';
import { BillingGate } from '../../platform/billing/billing-gate';
import { AuditLog, auditChanges } from '../../platform/audit/audit-log';

const UNIQUE_VIOLATION = '23505';

import { ErasedEmails } from '../erasure/erased-emails';
import { ErasedEmailException } from '../erasure/erasure.exceptions';
/** Most members Referrals to match lists at once (the oldest first; its `total` counts them all). */
export const REFERRALS_TO_MATCH_LIMIT = 100;

/**
 * Trees and branches of one business (docs/product.md#screens, docs/product.md#entities, docs/product.md#states). Every method takes the session's `BusinessScope`
 * first; all reads and writes go through `MembersRepository`, which scopes them to it. Writes
 * run in one transaction and lock the rows they depend on. Money is integer cents.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly events: MembershipEvents,
    private readonly lifecycle: LifecycleService,
    private readonly billing: BillingGate,
    private readonly audit: AuditLog,
    private readonly erased: ErasedEmails,
  ) {}

  /**
   * One page of the Branches table: one statement whatever the page size (the page's trees, their
   * branches and the total; see `MembersRepository.findPage`), after the guard's session check.
   * With a filter (status, managed, hasLink, referredBy) or a sort by price or status, the page
   * comes from the filtered statement (every match counted exactly).
   * @returns `MembersPage`: the rows, and `referrerNames` (id → name) of the trees' referrers when
   *   one has one; default sort createdAt asc, 50 per page; a search with more matches than it
   *   counts says `totalCapped: true` (docs/product.md#branches)
   */
  async list(scope: BusinessScope, query: ListMembersQueryDto): Promise<MembersPage> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const search = query.search || undefined;
    const { members, total, totalCapped } = await this.members.findPage(scope, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
      sort: query.sort ?? 'createdAt',
      order: query.order ?? 'asc',
      search,
      filters: {
        status: query.status,
        managed: query.managed,
        hasLink: query.hasLink,
        referredBy: query.referredBy,
      },
    });
    const referrerNames: Record<string, string> = {};
    for (const { member, referrerName } of members)
      if (member.referredById && referrerName) referrerNames[member.referredById] = referrerName;
    return {
      items: members.map(({ member, branchDetails }) => toMemberRow(member, branchDetails)),
      total,
      ...(totalCapped ? { totalCapped } : {}),
      page,
      pageSize,
      ...(Object.keys(referrerNames).length > 0 ? { referrerNames } : {}),
    };
  }

  /**
   * One member as a table row.
   * @param manager read in this open transaction (its own writes seen), else on the pool
   * @throws MemberNotFoundException 404 when not a member of this business
   */
  async get(scope: BusinessScope, id: string, manager?: EntityManager): Promise<MemberRow> {
    if (!isUUID(id)) throw new MemberNotFoundException();
    const [summary] = await this.members.findSummaries(scope, [id], manager);
    if (!summary) throw new MemberNotFoundException();
    const details = await this.members.findBranchDetails(scope, [id], manager);
    return toMemberRow(summary, details.get(id) ?? []);
  }

  /**
   * The given members of this business as table rows, in no particular order (ids that are not
   * UUIDs or not this business's are left out). Two statements, whatever the number of ids.
   */
  async getMany(scope: BusinessScope, ids: readonly string[]): Promise<MemberRow[]> {
    const wanted = [...new Set(ids)].filter((id) => isUUID(id));
    const summaries = await this.members.findSummaries(scope, wanted);
    if (summaries.length === 0) return [];
    const details = await this.members.findBranchDetails(
      scope,
      summaries.map((summary) => summary.id),
    );
    return summaries.map((summary) => toMemberRow(summary, details.get(summary.id) ?? []));
  }

  /**
   * Adds a tree (docs/product.md#screens "Start Growing"), optionally as a branch of
   * `referringMemberId`, or with `referredByNote`, who referred them as typed at the desk when it
   * matched no member: the member then waits in Referrals to match (issue 33 item 4).
   * @returns 201 row of the new member
   * @throws MemberNotFoundException 404 when the referring member is not in this business
   * @throws ManagedMemberLockedException 409 when the referring member is Mindbody-managed
   * @throws DuplicateMemberException 409 when the email key is taken in this business
   */
  async create(scope: BusinessScope, input: CreateMemberDto): Promise<MemberRow> {
    const id = await this.members.transaction(async (manager) => {
      await this.assertNotErased(scope, manager, input);
      const referrer = input.referringMemberId
        ? await this.lockEditable(scope, manager, input.referringMemberId)
        : null;
      return this.insert(
        scope,
        manager,
        input,
        referrer?.id ?? null,
        'manual',
        referrer ? null : input.referredByNote || null,
      );
    });
    return this.get(scope, id);
  }

  /**
   * Referrals to match (issue 33 item 4, docs/product.md#referrals-to-match): the members whose
   * "referred by" matched no member, oldest first, at most {@link REFERRALS_TO_MATCH_LIMIT}, and
   * how many wait in all.
   */
  referralsToMatch(scope: BusinessScope): Promise<ReferralsToMatch> {
    return this.members.referralsToMatch(scope, REFERRALS_TO_MATCH_LIMIT);
  }

  /**
   * Dismisses member `memberId`'s waiting referral: the note is cleared, the member stays a tree
   * referred by no one.
   * @throws MemberNotFoundException 404 no such member of the business waits to be matched
   */
  async dismissReferral(scope: BusinessScope, memberId: string): Promise<void> {
    const dismissed =
      isUUID(memberId) && (await this.members.dismissReferredByNote(scope, memberId));
    if (!dismissed) throw new MemberNotFoundException();
  }

  /**
   * Makes member `branchId`, a branch of no one, a branch of tree `treeId` after the fact (issue 33
   * item 4: a referral named at the desk and matched later, docs/product.md#referrals-to-match),
   * clearing its "referred by" note; records branch_added and the tree's new price in one
   * transaction, as adding a branch does.
   * @returns the member's row, now a branch of `treeId`
   * @throws OwnReferrerException 400 `branchId` is `treeId`
   * @throws MemberNotFoundException 404 either is not a member of the business
   * @throws ManagedMemberLockedException 409 the tree is Mindbody-managed
   * @throws AlreadyABranchException 409 the member is already a branch
   * @throws ReferralLoopException 409 the tree descends from the member (its branch, or theirs)
   * @throws BillingPausedException 402 while Grove is paused for an unpaid bill
   */
  async attachBranch(scope: BusinessScope, treeId: string, branchId: string): Promise<MemberRow> {
    if (treeId === branchId) throw new OwnReferrerException();
    await this.billing.assertOpen(scope);
    await this.members.transaction(async (manager) => {
      const tree = await this.lockEditable(scope, manager, treeId);
      const branch = isUUID(branchId)
        ? await this.members.findForUpdate(scope, manager, branchId)
        : null;
      if (!branch) throw new MemberNotFoundException();
      if (branch.referredById !== null) throw new AlreadyABranchException();
      if (await this.members.isSelfOrAncestor(scope, manager, branch.id, tree.id))
        throw new ReferralLoopException();
      await this.members.attachBranch(scope, manager, tree.id, branch.id);
      await this.audit.record(scope, manager, {
        kind: 'branch.added',
        member: { id: branch.id, name: branch.name },
        after: { referrer: tree.name },
      });
      const at = new Date();
      const key = `branch_added:${branch.id}:${tree.id}:${at.toISOString()}`;
      await this.lifecycle.recordFacts(
        scope,
        [
          {
            kind: 'branch_added',
            eventKey: key,
            occurredAt: at,
            memberId: branch.id,
            referrerId: tree.id,
            source: 'manual',
          },
        ],
        manager,
      );
      await this.lifecycle.recordEffectivePrices(
        scope,
        [tree.id],
        { reason: 'branch_added', branchId: branch.id, cause: key },
        manager,
      );
    });
    return this.get(scope, branchId);
  }

  /**
   * Adds a branch to tree `treeId` (docs/product.md#screens "Add a New Branch"): the branch is created as a new
   * tree attached to `treeId`, raising its branch count by one (docs/product.md#states), in one transaction.
   * @returns 201 row of the new member
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409, DuplicateMemberException 409
   * @throws BillingPausedException 402 while Grove is paused for an unpaid bill (docs/product.md#billing)
   */
  async addBranch(
    scope: BusinessScope,
    treeId: string,
    input: MemberFieldsDto,
  ): Promise<MemberRow> {
    await this.billing.assertOpen(scope);
    const id = await this.members.transaction(async (manager) => {
      await this.assertNotErased(scope, manager, input);
      return this.addBranchIn(scope, manager, treeId, input, 'manual');
    });
    return this.get(scope, id);
  }

  /**
   * The work of `addBranch` inside the caller's transaction (e.g. approving a prospective member):
   * locks tree `treeId`, then inserts the new member as its branch, recording member_added and
   * branch_added (with `source`) and the ledger lines of both (docs/architecture.md#lifecycle-facts).
   * and gives it a referral link when the business's automatic-link setting is on. An approval may
   * add a branch to a Mindbody-managed member (the friend joined through its link: Grove owns the
   * referral graph; once the friend's Mindbody client exists, the import or sync adopts the row by
   * email and keeps the branch); typing a branch by hand onto a managed member stays refused.
   * @param source 'manual' (add branch) or 'approval' (a prospective member approved)
   * @returns the new member's id
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409 (a managed tree, by hand),
   *   DuplicateMemberException 409
   */
  async addBranchIn(
    scope: BusinessScope,
    manager: EntityManager,
    treeId: string,
    input: MemberFieldsDto,
    source: FactSource = 'manual',
  ): Promise<string> {
    const tree = await this.lockEditable(scope, manager, treeId, source === 'approval');
    return this.insert(scope, manager, input, tree.id, source);
  }

  /**
   * Adds a tree inside the caller's transaction (approving a friend of the business's own join
   * page, issue 33 item 4, docs/product.md#business-join): no referrer; with `referredByNote`
   * ("Who referred you?" as the friend typed it) the member waits in Referrals to match
   * (docs/product.md#referrals-to-match). Records member_added (with `source`) and its ledger line.
   * @returns the new member's id
   * @throws DuplicateMemberException 409
   */
  addTreeIn(
    scope: BusinessScope,
    manager: EntityManager,
    input: MemberFieldsDto,
    source: FactSource,
    referredByNote: string | null,
  ): Promise<string> {
    return this.insert(scope, manager, input, null, source, referredByNote);
  }

  /**
   * Detaches branch `branchId` from tree `treeId`: the branch stays as a tree; the tree's count
   * drops by one (docs/product.md#states); records branch_removed and the tree's new price; and,
   * in the same transaction, when the tree's price moved (the branch counted, docs/product.md#branch-qualification: a
   * pending one lowered no price), "{friend} no longer counts as your branch: your price is back
   * to $Y" to the tree's member, if the owner left it on (announced as 'branch.ended', reason
   * 'removed': the membership did not end).
   * @throws MemberNotFoundException 404 when the tree is not in this business
   * @throws ManagedMemberLockedException 409 when the tree is Mindbody-managed
   * @throws NotABranchException 404 when `branchId` is not a branch of that tree
   */
  async removeBranch(scope: BusinessScope, treeId: string, branchId: string): Promise<void> {
    await this.members.transaction(async (manager) => {
      const tree = await this.lockEditable(scope, manager, treeId);
      const detached =
        isUUID(branchId) && (await this.members.detachBranch(scope, manager, treeId, branchId));
      if (!detached) throw new NotABranchException();
      const branch = await this.members.findForUpdate(scope, manager, branchId);
      await this.audit.record(scope, manager, {
        kind: 'branch.removed',
        member: branch ? { id: branch.id, name: branch.name } : null,
        before: { referrer: tree.name },
      });
      if (!(await this.recordBranchRemoved(scope, manager, treeId, branchId, new Date()))) return;
      // Queued in the removal's transaction: a crash after the commit cannot lose the email.
      const [moved] = await this.members.findSummaries(scope, [treeId], manager);
      if (!moved || !branch) return;
      await this.events.emit('branch.ended', {
        scope,
        branchId,
        friendName: branch.name,
        referrerId: treeId,
        priceNowCents: toMemberRow(moved, []).newPriceCents,
        reason: 'removed',
        manager,
      });
    });
  }

  /**
   * Changes a member's name, email, price or discount (each optional, docs/product.md#validation rules).
   * A changed effective price gets a ledger line ('membership_price_changed' when the price was
   * sent, else 'discount_changed'); an edit that moves no price (e.g. a discount on a member
   * without branches) writes none.
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409, DuplicateMemberException 409
   */
  async update(scope: BusinessScope, id: string, input: UpdateMemberDto): Promise<MemberRow> {
    await this.members.transaction(async (manager) => {
      const before = await this.lockEditable(scope, manager, id);
      const changes: MemberChanges = {};
      if (input.memberName !== undefined) changes.name = input.memberName;
      if (input.memberEmail !== undefined) {
        changes.email = input.memberEmail;
        changes.emailKey = emailKey(input.memberEmail);
        if (await this.members.emailKeyTaken(scope, manager, changes.emailKey, id)) {
          throw new DuplicateMemberException();
        }
      }
      if (input.membershipPriceCents !== undefined)
        changes.membershipPriceCents = input.membershipPriceCents;
      if (input.discountCents !== undefined) changes.discountCents = input.discountCents;
      await this.guardUnique(() => this.members.update(scope, manager, id, changes));
      await this.recordUpdate(scope, manager, before, changes);
      const priceEdited =
        (changes.membershipPriceCents ?? before.membershipPriceCents) !==
        before.membershipPriceCents;
      const discountEdited =
        (changes.discountCents ?? before.discountCents) !== before.discountCents;
      if (priceEdited || discountEdited) {
        await this.lifecycle.recordEffectivePrices(
          scope,
          [id],
          {
            reason: priceEdited ? 'membership_price_changed' : 'discount_changed',
            cause: `edit:${randomUUID()}`,
          },
          manager,
        );
      }
    });
    return this.get(scope, id);
  }

  /**
   * Removes a tree (docs/product.md#states), in one transaction: its entry leaves the tree listing it (that
   * tree's count drops), its own branches become plain trees, then the record is deleted; its
   * referral links and the prospects it referred go with it (ON DELETE CASCADE), so its code
   * stops working at once. Records member_ended, branch_removed for the tree it was a branch of
   * (whose price rises: it is locked too) and for each of its own branches, and its ledger's
   * 'membership_ended' line (new price 0) (docs/architecture.md#lifecycle-facts). A tree that was a
   * branch whose removal moved its referrer's price sets off "{friend}'s membership ended: your
   * price is back to $Y" to its referrer, if the owner left it on.
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409
   */
  async remove(scope: BusinessScope, id: string): Promise<void> {
    await this.members.transaction(async (manager) => {
      const member = await this.lockEditable(scope, manager, id);
      let moved = false;
      const endedAt = new Date();
      const referrerId = member.referredById;
      if (referrerId) {
        await this.members.findForUpdate(scope, manager, referrerId);
        await this.members.setReferrer(scope, manager, id, null);
        moved = await this.recordBranchRemoved(scope, manager, referrerId, id, endedAt);
      }
      const branches = await this.members.detachAllBranches(scope, manager, id);
      await this.recordBranchesRemoved(scope, manager, id, branches, endedAt);
      const endedKey = `member_ended:${id}:${endedAt.toISOString()}`;
      await this.lifecycle.recordEffectivePrices(
        scope,
        [id],
        { reason: 'membership_ended', cause: endedKey },
        manager,
      );
      await this.lifecycle.recordFacts(
        scope,
        [
          {
            kind: 'member_ended',
            eventKey: endedKey,
            occurredAt: endedAt,
            memberId: id,
            referrerId,
            source: 'manual',
          },
        ],
        manager,
      );
      await this.members.delete(scope, manager, id);
      await this.audit.record(scope, manager, {
        kind: 'member.removed',
        member: { id, name: member.name },
        before: {
          email: member.email,
          membershipPriceCents: member.membershipPriceCents,
          discountCents: member.discountCents,
        },
      });
      if (!referrerId || !moved) return;
      // Queued in the removal's transaction: a crash after the commit cannot lose the email.
      const [referrer] = await this.members.findSummaries(scope, [referrerId], manager);
      if (referrer)
        await this.events.emit('branch.ended', {
          scope,
          branchId: id,
          friendName: member.name,
          referrerId: referrer.id,
          priceNowCents: toMemberRow(referrer, []).newPriceCents,
          reason: 'removed',
          manager,
        });
    });
  }

  /**
   * Records branch_removed for each of `branchIds`, detached by hand from tree `treeId` at `at`
   * (key `branch_removed:<branch id>:<tree id>:<time>`).
   * @returns the facts' event keys, in the order of `branchIds`
   */
  private async recordBranchesRemoved(
    scope: BusinessScope,
    manager: EntityManager,
    treeId: string,
    branchIds: string[],
    at: Date,
  ): Promise<string[]> {
    const keys = branchIds.map(
      (branchId) => `branch_removed:${branchId}:${treeId}:${at.toISOString()}`,
    );
    await this.lifecycle.recordFacts(
      scope,
      branchIds.map((branchId, index) => ({
        kind: 'branch_removed',
        eventKey: keys[index] ?? '',
        occurredAt: at,
        memberId: branchId,
        referrerId: treeId,
        source: 'manual',
      })),
      manager,
    );
    return keys;
  }

  /**
   * Records branch `branchId` detached from tree `treeId` (locked) and the tree's new price.
   * @returns true when the tree's price moved (the branch counted: a pending or lapsed one did not)
   */
  private async recordBranchRemoved(
    scope: BusinessScope,
    manager: EntityManager,
    treeId: string,
    branchId: string,
    at: Date,
  ): Promise<boolean> {
    const [key = ''] = await this.recordBranchesRemoved(scope, manager, treeId, [branchId], at);
    const lines = await this.lifecycle.recordEffectivePrices(
      scope,
      [treeId],
      { reason: 'branch_removed', branchId, cause: key },
      manager,
    );
    return lines > 0;
  }

  /**
   * Locks a member of this business that may be changed by hand: not one managed by Mindbody nor
   * one billed on the business's Stripe (issue 32: its price is the subscription's, its discount
   * the confirmed sync's). With `managedReferrer`, also those: it only gains a branch through an
   * approval.
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409
   */
  private async lockEditable(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
    managedReferrer = false,
  ): Promise<MemberEntity> {
    const member = isUUID(id) ? await this.members.findForUpdate(scope, manager, id) : null;
    if (!member) throw new MemberNotFoundException();
    if (managedReferrer) return member;
    if (member.mindbodyClientId !== null) throw new ManagedMemberLockedException();
    if (await this.members.stripeBilled(scope, manager, id))
      throw new ManagedMemberLockedException('Stripe');
    return member;
  }

  /**
   * Inserts a member by hand and gives it a link when automatic links are on.
   * @param referredByNote who referred them as typed at the desk, when no member matched
   * @returns its id
   */
  private async insert(
    scope: BusinessScope,
    manager: EntityManager,
    input: MemberFieldsDto,
    referredById: string | null,
    source: FactSource,
    referredByNote: string | null = null,
  ): Promise<string> {
    const key = emailKey(input.memberEmail);
    if (await this.members.emailKeyTaken(scope, manager, key)) throw new DuplicateMemberException();
    const id = await this.guardUnique(() =>
      this.members.insert(scope, manager, {
        name: input.memberName,
        email: input.memberEmail,
        emailKey: key,
        membershipPriceCents: input.membershipPriceCents,
        discountCents: input.discountCents,
        referredById,
        referredByNote,
      }),
    );
    await this.lifecycle.recordFacts(
      scope,
      [
        { kind: 'member_added', eventKey: `member_added:${id}`, memberId: id, source },
        ...(referredById
          ? [
              {
                kind: 'branch_added' as const,
                eventKey: `branch_added:${id}`,
                memberId: id,
                referrerId: referredById,
                source,
              },
            ]
          : []),
      ],
      manager,
    );
    await this.lifecycle.recordEffectivePrices(
      scope,
      [id],
      { reason: 'member_added', cause: 'member_added' },
      manager,
    );
    if (referredById) {
      await this.lifecycle.recordEffectivePrices(
        scope,
        [referredById],
        { reason: 'branch_added', branchId: id, cause: `branch_added:${id}` },
        manager,
      );
    }
    await this.audit.record(scope, manager, {
      kind: referredById ? 'branch.added' : 'member.created',
      member: { id, name: input.memberName },
      after: {
        email: input.memberEmail,
        membershipPriceCents: input.membershipPriceCents,
        discountCents: input.discountCents,
        ...(source === 'approval' ? { source: 'approval' } : {}),
      },
    });
    await this.events.emit('members.added', { scope, manager, memberIds: [id] });
    return id;
  }

  /**
   * Records an edit of member `before` in the audit log: 'member.price_changed' (the price and
   * discount before → after) when either moved, 'member.updated' (name, email) when they did;
   * nothing when nothing changed.
   */
  private async recordUpdate(
    scope: BusinessScope,
    manager: EntityManager,
    before: MemberEntity,
    changes: MemberChanges,
  ): Promise<void> {
    const member = { id: before.id, name: changes.name ?? before.name };
    const price = auditChanges(
      { membershipPriceCents: before.membershipPriceCents, discountCents: before.discountCents },
      { membershipPriceCents: changes.membershipPriceCents, discountCents: changes.discountCents },
    );
    if (price)
      await this.audit.record(scope, manager, { kind: 'member.price_changed', member, ...price });
    const details = auditChanges(
      { name: before.name, email: before.email },
      { name: changes.name, email: changes.email },
    );
    if (details)
      await this.audit.record(scope, manager, { kind: 'member.updated', member, ...details });
  }

  /**
   * Refuses an email whose member was erased on request, unless the owner confirmed
   * (`confirmErased`), docs/product.md#data-rights.
   * @throws ErasedEmailException 409
   */
  private async assertNotErased(
    scope: BusinessScope,
    manager: EntityManager,
    input: MemberFieldsDto,
  ): Promise<void> {
    if (input.confirmErased === true) return;
    if (await this.erased.wasErased(scope, input.memberEmail, manager))
      throw new ErasedEmailException();
  }

  /** Turns a race on the (business_id, email_key) unique index into DuplicateMemberException. */
  private async guardUnique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION)
        throw new DuplicateMemberException();
      throw error;
    }
  }
}
