import { Injectable, type OnModuleInit } from '@nestjs/common';
import { FRONT_DESK_PRICE_MESSAGE } from '@grove/contracts';
import { RoleLimitChecks } from '../../platform/auth/roles/role-limit-checks';
import { sessionScope } from '../../platform/database/business-scope';
import { ProspectsRepository } from './prospects.repository';

/** A string that can be a prospect's id (anything else gets the route's own 400/404). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The role table's `approval-prefill` limit for front desk (docs/product.md#staff-accounts),
 * registered with `RoleLimitChecks` when the module starts: approving a prospect, the body's
 * `membershipPriceCents` and `discountCents` (cents) must be what the approval starts from (its
 * `approvalPrefill`: the referrer's price and discount, docs/product.md#member-defaults), so front
 * desk approves without changing a price. A prospect not in the business passes here and gets
 * the route's own 404. Read only; `RoleGuard` answers 403 `FRONT_DESK_PRICE_MESSAGE`.
 */
@Injectable()
export class FrontDeskApprovals implements OnModuleInit {
  constructor(
    private readonly checks: RoleLimitChecks,
    private readonly prospects: ProspectsRepository,
  ) {}

  onModuleInit(): void {
    this.checks.register('approval-prefill', async (request, user) => {
      const id = String(request.params['id'] ?? '');
      const prefill = UUID.test(id)
        ? await this.prospects.approvalPrefillOf(sessionScope(user), id)
        : null;
      if (!prefill) return null;
      const body = (request.body ?? {}) as {
        membershipPriceCents?: unknown;
        discountCents?: unknown;
      };
      return prefill.membershipPriceCents !== null &&
        prefill.discountCents !== null &&
        body.membershipPriceCents === prefill.membershipPriceCents &&
        body.discountCents === prefill.discountCents
        ? null
        : FRONT_DESK_PRICE_MESSAGE;
    });
  }
}
