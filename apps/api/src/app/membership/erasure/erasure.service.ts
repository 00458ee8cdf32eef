import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { ERASED_MEMBER_NAME } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { MemberNotFoundException } from '../members/members.exceptions';
import { ErasedEmails } from './erased-emails';
import { AlreadyErasedException, ErasingManagedMemberException } from './erasure.exceptions';
import { ErasureRepository } from './erasure.repository';

/**
 * Erase one member's personal data on request (issue 34 item 6, docs/product.md#data-rights):
 * name → 'Erased member', email and the desk's note gone, the copies in prospects, join flags,
 * outcomes, tokens and waiting emails gone, referral links revoked; the member's row, prices,
 * branches and the price ledger stay, so every other member's price stays right (a branch still
 * counts for its referrer). The email is kept only as a keyed digest (`ErasedEmails`), so adding
 * or importing it again asks the owner first. One transaction.
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly repository: ErasureRepository,
    private readonly erased: ErasedEmails,
  ) {}

  /**
   * @throws MemberNotFoundException 404 when the business has no such member
   * @throws AlreadyErasedException 409 when it is already erased
   * @throws ErasingManagedMemberException 409 when Mindbody manages it
   */
  async erase(scope: BusinessScope, memberId: string): Promise<void> {
    if (!isUUID(memberId)) throw new MemberNotFoundException();
    await this.repository.transaction(async (manager) => {
      const member = await this.repository.lockMember(scope, manager, memberId);
      if (!member) throw new MemberNotFoundException();
      if (member.erasedAt) throw new AlreadyErasedException();
      if (member.managed) throw new ErasingManagedMemberException();
      await this.repository.erase(
        scope,
        manager,
        member,
        ERASED_MEMBER_NAME,
        this.erased.digest(scope, member.emailKey || member.email),
      );
    });
  }
}
