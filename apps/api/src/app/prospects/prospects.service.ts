import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { IntegrationName, MemberRow, Page, ProspectRow } from '@grove/contracts';
import type { MemberFieldsDto } from '../members/dto/create-member.dto';
import { DEFAULT_PAGE_SIZE } from '../common/page-query.dto';
import { MembersService } from '../members/members.service';
import type { ListProspectsQueryDto } from './dto/list-prospects-query.dto';
import { ProspectManagedException, ProspectNotFoundException } from './prospects.exceptions';
import { ProspectsRepository, type ProspectSummary } from './prospects.repository';

const toIntegration = (source: string | null): IntegrationName | null => (source === 'Mindbody' ? 'Mindbody' : null);

/** One row of the Prospective Members screen. */
export function toProspectRow(prospect: ProspectSummary): ProspectRow {
  return {
    id: prospect.id,
    name: prospect.name,
    email: prospect.email,
    referringMemberId: prospect.referringMemberId,
    referringMemberName: prospect.referringMemberName,
    managedByIntegration: toIntegration(prospect.source),
    createdAt: prospect.createdAt.toISOString(),
  };
}

/**
 * Prospective members of one business (SPEC §2, §4): list, remove, approve. The business id
 * always comes from the session; every read and write goes through `ProspectsRepository`.
 */
@Injectable()
export class ProspectsService {
  constructor(
    private readonly prospects: ProspectsRepository,
    private readonly members: MembersService,
  ) {}

  /** → `Page<ProspectRow>`, oldest first, 50 per page by default (2 statements). */
  async list(businessId: string, query: ListProspectsQueryDto): Promise<Page<ProspectRow>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const { rows, total } = await this.prospects.findPage(businessId, { offset: (page - 1) * pageSize, limit: pageSize });
    return { items: rows.map(toProspectRow), total, page, pageSize };
  }

  /**
   * Removes a prospective member (SPEC §2 'Remove').
   * @throws ProspectNotFoundException 404 when not in this business
   */
  async remove(businessId: string, id: string): Promise<void> {
    const deleted = isUUID(id) && (await this.prospects.delete(this.prospects.manager, businessId, id));
    if (!deleted) throw new ProspectNotFoundException();
  }

  /**
   * Approves a prospective member (SPEC §2 'Approve' → add-branch form), in ONE transaction: locks
   * the prospect, creates the new tree from the (possibly edited) form as a branch of the
   * referring member (the same rules as `POST /api/members/:id/branches`), deletes the prospect.
   * A second approval finds no prospect (404) and creates nothing.
   * @returns 201 row of the new member
   * @throws ProspectNotFoundException 404 (unknown, other business, already approved)
   * @throws ProspectManagedException 409 when an integration manages the prospect
   * @throws MemberNotFoundException 404, ManagedMemberLockedException 409, DuplicateMemberException 409
   */
  async approve(businessId: string, id: string, input: MemberFieldsDto): Promise<MemberRow> {
    const memberId = await this.prospects.transaction(async (manager) => {
      const prospect = isUUID(id) ? await this.prospects.findForUpdate(manager, businessId, id) : null;
      if (!prospect) throw new ProspectNotFoundException();
      if (prospect.source !== null) throw new ProspectManagedException();
      const newId = await this.members.addBranchIn(manager, businessId, prospect.referringMemberId, input);
      await this.prospects.delete(manager, businessId, prospect.id);
      return newId;
    });
    return this.members.get(businessId, memberId);
  }
}
