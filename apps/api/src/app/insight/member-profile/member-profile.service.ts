import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import {
  PRICE_LEDGER_MAX_LINES,
  PROFILE_PROSPECTS_MAX,
  REFERRAL_TREE_MAX_DEPTH,
  REFERRAL_TREE_MAX_NODES,
  type MemberProfile,
  type ReferralTreeNode,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { MemberNotFoundException } from '../../membership/members/members.exceptions';
import { MembersService } from '../../membership/members/members.service';
import { ReferralsService } from '../../referral/referrals/referrals.service';
import { MemberProfileRepository, type TreeMemberRow } from './member-profile.repository';

/**
 * Nests the breadth-first tree rows under their parents: each node's `branches` in the rows'
 * order (oldest first), `hiddenBranches` = its branches in all − those drawn.
 * @param rootId the profile's member
 */
export function nestTree(rootId: string, rows: TreeMemberRow[]): ReferralTreeNode[] {
  const nodes = new Map<string, ReferralTreeNode>();
  const counts = new Map<string, number>();
  const roots: ReferralTreeNode[] = [];
  for (const row of rows) {
    const node: ReferralTreeNode = {
      id: row.id,
      name: row.name,
      joinedAt: row.joinedAt.toISOString(),
      status: row.status,
      branches: [],
      hiddenBranches: 0,
    };
    nodes.set(row.id, node);
    counts.set(row.id, row.branchCount);
    const parent = row.parentId === rootId ? undefined : nodes.get(row.parentId);
    if (parent) parent.branches.push(node);
    else if (row.parentId === rootId) roots.push(node);
  }
  for (const [id, node] of nodes)
    node.hiddenBranches = (counts.get(id) ?? 0) - node.branches.length;
  return roots;
}

/**
 * The member profile (issue 14 part 3, `/dashboard/members/:id`): the member's details as the
 * Branches table shows them, whose branch they are, their referral tree
 * (`REFERRAL_TREE_MAX_DEPTH` levels, `REFERRAL_TREE_MAX_NODES` members at most), price ledger,
 * live referral link and everyone who joined through it (waiting, approved, removed). Only the session's business: any other id is 404.
 */
@Injectable()
export class MemberProfileService {
  constructor(
    private readonly repository: MemberProfileRepository,
    private readonly members: MembersService,
    private readonly referrals: ReferralsService,
  ) {}

  /**
   * @throws MemberNotFoundException 404 'Member not found' (malformed id, unknown, or another
   *   business's member)
   */
  async get(scope: BusinessScope, id: string): Promise<MemberProfile> {
    if (!isUUID(id)) throw new MemberNotFoundException();
    const origin = await this.repository.findOrigin(scope, id);
    if (!origin) throw new MemberNotFoundException();
    const [member, tree, ledger, referralLink, prospects] = await Promise.all([
      this.members.get(scope, id),
      this.repository.findTree(scope, id, REFERRAL_TREE_MAX_DEPTH, REFERRAL_TREE_MAX_NODES),
      this.repository.findLedger(scope, id, PRICE_LEDGER_MAX_LINES),
      this.referrals.liveLink(scope, id),
      this.repository.findProspects(scope, id, PROFILE_PROSPECTS_MAX),
    ]);
    return {
      member,
      joinedAt: origin.joinedAt.toISOString(),
      referredBy: origin.referredBy,
      tree: nestTree(id, tree),
      ledger: ledger.map((line) => ({ ...line, occurredAt: line.occurredAt.toISOString() })),
      referralLink,
      prospects: prospects.map((prospect) => ({
        ...prospect,
        joinedAt: prospect.joinedAt.toISOString(),
      })),
    };
  }
}
