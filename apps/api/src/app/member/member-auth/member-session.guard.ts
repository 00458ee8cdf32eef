import {
  createParamDecorator,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { MemberSessionMissingException } from './member-auth.exceptions';
import { MemberAuthService } from './member-auth.service';
import type { MemberSessionRow } from './member-tokens.repository';

type MemberRequest = Request & { member?: MemberSessionRow };

/**
 * Lets a request through only with a live member session cookie and sets `request.member`
 * (business, member, session). Member page routes are `@Public()` for the owner's JWT guard and
 * use this guard instead: an owner's access token opens none of them.
 * @throws MemberSessionMissingException 401 no cookie, or its session expired or was revoked
 */
@Injectable()
export class MemberSessionGuard implements CanActivate {
  constructor(private readonly auth: MemberAuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<MemberRequest>();
    const session = await this.auth.sessionOf(request);
    if (!session) throw new MemberSessionMissingException();
    request.member = session;
    return true;
  }
}

/** Injects the member session `MemberSessionGuard` proved (only on routes behind it). */
export const CurrentMember = createParamDecorator(
  (_data: unknown, context: ExecutionContext): MemberSessionRow => {
    const request = context.switchToHttp().getRequest<MemberRequest>();
    if (!request.member)
      throw new Error('CurrentMember used on a route without MemberSessionGuard');
    return request.member;
  },
);
