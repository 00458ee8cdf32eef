import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { SECOND_FACTOR_MESSAGES } from '@grove/contracts';
import type { AuthUser } from '../../common/auth-user';
import { GroveException } from '../../common/grove.exception';
import { IS_PUBLIC_KEY } from '../../common/public.decorator';
import { roleRuleFor } from '../roles/role-table';

/** The business requires a second factor the user has not set up. → 403 'Your business asks…' */
export class SecondFactorMissingException extends GroveException {
  override readonly status = HttpStatus.FORBIDDEN;

  constructor() {
    super(SECOND_FACTOR_MESSAGES.setupRequired);
  }
}

/**
 * Global guard after `JwtAuthGuard`, before `RoleGuard` (issue 34 item 3, docs/product.md#second-factor): while the
 * user's business requires a second factor they have not set up (`AuthUser.secondFactorMissing`,
 * read with the session by `JwtAuthGuard`), a signed-in request runs only when its row of the
 * role table is marked `beforeSecondFactor` (who is signed in, the account read, and setting up
 * an authenticator app or a passkey); signing out is public. Runs before the role check (the
 * missing factor is the reason given) and before the route: a refusal writes nothing.
 *
 * @throws SecondFactorMissingException 403 'Your business asks everyone to use a second factor…'
 */
@Injectable()
export class SecondFactorGate implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context
      .switchToHttp()
      .getRequest<Request & { user?: AuthUser; route?: { path?: unknown } }>();
    if (!request.user?.secondFactorMissing) return true;
    const routePath = typeof request.route?.path === 'string' ? request.route.path : '';
    if (roleRuleFor(request.method, routePath)?.beforeSecondFactor) return true;
    throw new SecondFactorMissingException();
  }
}
