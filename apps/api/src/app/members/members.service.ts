import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { dollarsToCents, emailKey, type MemberRow, type Page } from '@grove/contracts';
import type { CreateMemberDto, MemberFieldsDto } from './dto/create-member.dto';
import { DEFAULT_PAGE_SIZE } from '../common/page-query.dto';
import type { ListMembersQueryDto } from './dto/list-members-query.dto';
import type { UpdateMemberDto } from './dto/update-member.dto';
import { toMemberRow } from './member-row';
import type { MemberEntity } from './member.entity';
import type { BusinessScope } from '../database/business-scope';
import { MembersRepository, type MemberChanges } from './members.repository';
import { MemberNotifications } from '../member-notifications/member-notifications.service';
import {
  DuplicateMemberException,
  ManagedMemberLockedException,
  MemberNotFoundException,
  NotABranchException,
} from './members.exceptions';

const UNIQUE_VIOLATION = '23505';

/** Dollars already validated by the DTO → cents. */
function cents(dollars: string | number): number {
  const value = dollarsToCents(dollars);
  if (value === null) throw new Error(`unvalidated amount reached the service: ${String(dollars)}`);
  return value;
}

/**
 * Trees and branches of one business (docs/product.md#screens, docs/product.md#entities, docs/product.md#states). Every method takes the session's `BusinessScope`
 * first; all reads and writes go through `MembersRepository`, which scopes them to it. Writes
 * run in one transaction and lock the rows they depend on. Money is integer cents.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly notifications: MemberNotifications,
  ) {}

  /**
   * One page of the Branches table: one statement whatever the page size (the page's trees, their
   * branches and the total; see `MembersRepository.findPage`), after the guard's session check.
   * @returns `Page<MemberRow>`; default sort createdAt asc, 50 per page
   */
  async list(scope: BusinessScope, query: ListMembersQueryDto): Promise<Page<MemberRow>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const search = query.search || undefined;
    const { members, total } = await this.members.findPage(scope, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
      sort: query.sort ?? 'createdAt',
      order: query.order ?? 'asc',
      search,
    });
    return {
      items: members.map(({ member, branchDetails }) => toMemberRow(member, branchDetails)),
      total,
      page,
      pageSize,
    };
  }

  /**
   * One member as a table row.
   * @throws MemberNotFoundException 404 when not a member of this business
   */
  async get(scope: BusinessScope, id: string): Promise<MemberRow> {
    if (!isUUID(id)) throw new MemberNotFoundException();
    const [summary] = await this.members.findSummaries(scope, [id]);
    if (!summary) throw new MemberNotFoundException();
    const details = await this.members.findBranchDetails(scope, [id]);
    return toMemberRow(summary, details.get(id) ?? []);
  }

  /**
   * Adds a tree (docs/product.md#screens "Start Growing"), optionally as a branch of `referringMemberId`.
   * @returns 201 row of the new member
   * @throws MemberNotFoundException 404 when the referring member is not in this business
   * @throws ManagedMemberLockedException 409 when the referring member is Mindbody-managed
   * @throws DuplicateMemberException 409 when the email key is taken in this business
   */
  async create(scope: BusinessScope, input: CreateMemberDto): Promise<MemberRow> {
    const id = await this.members.transaction(async (manager) => {
      const referrer = input.referringMemberId
        ? await this.lockEditable(scope, manager, input.referringMemberId)
        : null;
      return this.insert(scope, manager, input, referrer?.id ?? null);
    });
    return this.get(scope, id);
  }

  /**
   * Adds a branch to tree `treeId` (docs/product.md#screens "Add a New Branch"): the branch is created as a new
   * tree attached to `treeId`, raising its branch count by one (docs/product.md#states), in one transaction.
   * @returns 201 row of the new member
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409, DuplicateMemberException 409
   */
  async addBranch(
    scope: BusinessScope,
    treeId: string,
    input: MemberFieldsDto,
  ): Promise<MemberRow> {
    const id = await this.members.transaction((manager) =>
      this.addBranchIn(scope, manager, treeId, input),
    );
    return this.get(scope, id);
  }

  /**
   * The work of `addBranch` inside the caller's transaction (e.g. approving a prospective member):
   * locks tree `treeId`, then inserts the new member as its branch.
   * @returns the new member's id
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409, DuplicateMemberException 409
   */
  async addBranchIn(
    scope: BusinessScope,
    manager: EntityManager,
    treeId: string,
    input: MemberFieldsDto,
  ): Promise<string> {
    const tree = await this.lockEditable(scope, manager, treeId);
    return this.insert(scope, manager, input, tree.id);
  }

  /**
   * Detaches branch `branchId` from tree `treeId`: the branch stays as a tree; the tree's count
   * drops by one (docs/product.md#states). Then "{friend}'s membership ended: your price is back to
   * $Y" to the tree's member, if the owner left it on (`MemberNotifications.branchEnded`).
   * @throws MemberNotFoundException 404 when the tree is not in this business
   * @throws ManagedMemberLockedException 409 when the tree is Mindbody-managed
   * @throws NotABranchException 404 when `branchId` is not a branch of that tree
   */
  async removeBranch(scope: BusinessScope, treeId: string, branchId: string): Promise<void> {
    await this.members.transaction(async (manager) => {
      await this.lockEditable(scope, manager, treeId);
      const detached =
        isUUID(branchId) && (await this.members.detachBranch(scope, manager, treeId, branchId));
      if (!detached) throw new NotABranchException();
    });
    const [tree, branch] = await Promise.all([this.get(scope, treeId), this.get(scope, branchId)]);
    await this.notifications.branchEnded(scope, {
      branchId,
      friendName: branch.memberName,
      referrerId: tree.id,
      priceNowCents: tree.newPriceCents,
    });
  }

  /**
   * Changes a member's name, email, price or discount (each optional, docs/product.md#validation rules).
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409, DuplicateMemberException 409
   */
  async update(scope: BusinessScope, id: string, input: UpdateMemberDto): Promise<MemberRow> {
    await this.members.transaction(async (manager) => {
      await this.lockEditable(scope, manager, id);
      const changes: MemberChanges = {};
      if (input.memberName !== undefined) changes.name = input.memberName;
      if (input.memberEmail !== undefined) {
        changes.email = input.memberEmail;
        changes.emailKey = emailKey(input.memberEmail);
        if (await this.members.emailKeyTaken(scope, manager, changes.emailKey, id)) {
          throw new DuplicateMemberException();
        }
      }
      if (input.membershipPrice !== undefined)
        changes.membershipPriceCents = cents(input.membershipPrice);
      if (input.discount !== undefined) changes.discountCents = cents(input.discount);
      await this.guardUnique(() => this.members.update(scope, manager, id, changes));
    });
    return this.get(scope, id);
  }

  /**
   * Removes a tree (docs/product.md#states), in one transaction: its entry leaves the tree listing it (that
   * tree's count drops), its own branches become plain trees, then the record is deleted; its
   * referral links and the prospects it referred go with it (ON DELETE CASCADE), so its code
   * stops working at once. A tree that was a branch sets off "{friend}'s membership ended: your
   * price is back to $Y" to its referrer, if the owner left it on.
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409
   */
  async remove(scope: BusinessScope, id: string): Promise<void> {
    const removed = await this.members.transaction(async (manager) => {
      const member = await this.lockEditable(scope, manager, id);
      if (member.referredById) await this.members.setReferrer(scope, manager, id, null);
      await this.members.detachAllBranches(scope, manager, id);
      await this.members.delete(scope, manager, id);
      return member;
    });
    if (removed.referredById) {
      const [referrer] = await this.members.findSummaries(scope, [removed.referredById]);
      if (referrer)
        await this.notifications.branchEnded(scope, {
          branchId: removed.id,
          friendName: removed.name,
          referrerId: referrer.id,
          priceNowCents: toMemberRow(referrer, []).newPriceCents,
        });
    }
  }

  /** Locks a member of this business that may be changed by hand. */
  private async lockEditable(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
  ): Promise<MemberEntity> {
    const member = isUUID(id) ? await this.members.findForUpdate(scope, manager, id) : null;
    if (!member) throw new MemberNotFoundException();
    if (member.mindbodyClientId !== null) throw new ManagedMemberLockedException();
    return member;
  }

  private async insert(
    scope: BusinessScope,
    manager: EntityManager,
    input: MemberFieldsDto,
    referredById: string | null,
  ): Promise<string> {
    const key = emailKey(input.memberEmail);
    if (await this.members.emailKeyTaken(scope, manager, key)) throw new DuplicateMemberException();
    return this.guardUnique(() =>
      this.members.insert(scope, manager, {
        name: input.memberName,
        email: input.memberEmail,
        emailKey: key,
        membershipPriceCents: cents(input.membershipPrice),
        discountCents: cents(input.discount),
        referredById,
      }),
    );
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
