import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { roleRefusedMessage, type StaffRole } from '@grove/contracts';
import type { AuthUser } from '../../common/auth-user';
import { GroveException } from '../../common/grove.exception';
import { IS_PUBLIC_KEY } from '../../common/public.decorator';
import { RoleLimitChecks } from './role-limit-checks';
import { roleRuleFor } from './role-table';

/** The session's role may not call this route, or not this part of it. → 403 with the reason */
export class RoleRefusedException extends GroveException {
  override readonly status = HttpStatus.FORBIDDEN;
}

/**
 * Global guard after `JwtAuthGuard` (issue 34 item 1, docs/product.md#staff-accounts): a
 * signed-in request runs only when the role table (`ROLE_TABLE`) lists its route (method and
 * path) with the session's role, and, where the row limits that role (`RoleLimit`), when the
 * request stays within the limit. Public routes pass. Runs before the route, so a refusal writes
 * nothing.
 *
 * @throws RoleRefusedException 403 'Your role (…) does not allow this…' when the role is not
 *   listed or the route is missing from the table (every role refused), or the limit's own
 *   message when the request goes past it
 */
@Injectable()
export class RoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RoleLimitChecks,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context
      .switchToHttp()
      .getRequest<Request & { user?: AuthUser; route?: { path?: unknown } }>();
    const user = request.user;
    const role: StaffRole = user?.role ?? 'viewer';
    const routePath = typeof request.route?.path === 'string' ? request.route.path : '';
    const rule = roleRuleFor(request.method, routePath);
    if (!user || !rule || !rule.roles.includes(role))
      throw new RoleRefusedException(roleRefusedMessage(role));
    const limit = rule.limits?.[role];
    if (!limit) return true;
    const check = this.limits.get(limit);
    const refusal = check
      ? await check(request, { userId: user.userId, businessId: user.businessId })
      : roleRefusedMessage(role);
    if (refusal) throw new RoleRefusedException(refusal);
    return true;
  }
}
