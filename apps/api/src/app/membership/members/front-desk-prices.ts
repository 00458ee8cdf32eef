import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { FRONT_DESK_PRICE_MESSAGE } from '@grove/contracts';
import { RoleLimitChecks } from '../../platform/auth/roles/role-limit-checks';
import { sessionScope } from '../../platform/database/business-scope';
import { MemberDefaultsRepository } from '../member-defaults/member-defaults.repository';
import { MembersRepository } from './members.repository';

/** The price fields of a members body (`MemberFieldsDto`), as sent. */
const bodyOf = (request: Request) =>
  (request.body ?? {}) as { membershipPriceCents?: unknown; discountCents?: unknown };

/**
 * The role table's price limits for front desk (docs/product.md#staff-accounts), registered with
 * `RoleLimitChecks` when the module starts. Read only; `RoleGuard` answers 403
 * `FRONT_DESK_PRICE_MESSAGE` when one refuses.
 *
 * - `default-price-and-discount` (adding a member or a branch): the body's
 *   `membershipPriceCents` and `discountCents` (cents) must both equal the business's member
 *   defaults; refused when the business has not set them (docs/product.md#member-defaults).
 * - `price-unchanged` (changing a member): each of them, when present, must equal the member's
 *   own; a member not in the business passes here and gets the route's own 404.
 */
@Injectable()
export class FrontDeskPrices implements OnModuleInit {
  constructor(
    private readonly checks: RoleLimitChecks,
    private readonly defaults: MemberDefaultsRepository,
    private readonly members: MembersRepository,
  ) {}

  onModuleInit(): void {
    this.checks.register('default-price-and-discount', async (request, user) => {
      const body = bodyOf(request);
      const defaults = await this.defaults.get(sessionScope(user));
      return defaults.membershipPriceCents !== null &&
        defaults.discountCents !== null &&
        body.membershipPriceCents === defaults.membershipPriceCents &&
        body.discountCents === defaults.discountCents
        ? null
        : FRONT_DESK_PRICE_MESSAGE;
    });
    this.checks.register('price-unchanged', async (request, user) => {
      const body = bodyOf(request);
      if (body.membershipPriceCents === undefined && body.discountCents === undefined) return null;
      const id = String(request.params['id'] ?? '');
      const [member] = /^[0-9a-f-]{36}$/i.test(id)
        ? await this.members.findSummaries(sessionScope(user), [id])
        : [];
      if (!member) return null;
      const same = (sent: unknown, own: number) => sent === undefined || sent === own;
      return same(body.membershipPriceCents, member.membershipPriceCents) &&
        same(body.discountCents, member.discountCents)
        ? null
        : FRONT_DESK_PRICE_MESSAGE;
    });
  }
}
