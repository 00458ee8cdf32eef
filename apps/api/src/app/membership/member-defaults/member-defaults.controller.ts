import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { AuditLog } from '../../platform/audit/audit-log';
import { MemberDefaultsDto } from './dto/member-defaults.dto';
import { MemberDefaultsReplyDto } from './dto/member-defaults-reply.dto';
import { MemberDefaultsRepository } from './member-defaults.repository';

/**
 * The signed-in owner's member defaults (Account Settings, 'Defaults for new members';
 * docs/product.md#member-defaults). 401 without a session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/member-defaults')
export class MemberDefaultsController {
  constructor(
    private readonly defaults: MemberDefaultsRepository,
    private readonly audit: AuditLog,
  ) {}

  /** → 200 `MemberDefaults` `{ discountCents, membershipPriceCents }` (cents; null = not set, the default). */
  @Get()
  @ApiOperation({ summary: 'Default discount per referral and membership price for new members' })
  @ApiOkResponse({ type: MemberDefaultsReplyDto })
  get(@CurrentUser() user: AuthUser): Promise<MemberDefaultsReplyDto> {
    return this.defaults.get(sessionScope(user));
  }

  /**
   * Body `{ discountCents, membershipPriceCents }` (integer cents 0–100,000,000 or null). → 200 the
   * saved defaults; 400 'Not a valid discount price' / 'Not a valid amount' (`fieldErrors` per
   * field), nothing saved. A change is recorded in the audit log (docs/product.md#audit-log).
   */
  @Put()
  @ApiOperation({ summary: 'Save the default discount per referral and membership price' })
  @ApiOkResponse({ type: MemberDefaultsReplyDto })
  put(
    @CurrentUser() user: AuthUser,
    @Body() body: MemberDefaultsDto,
  ): Promise<MemberDefaultsReplyDto> {
    const scope = sessionScope(user);
    return this.audit.changeSetting(
      scope,
      'Defaults for new members',
      (manager) => this.defaults.get(scope, manager),
      (manager) =>
        this.defaults.save(scope, manager, {
          discountCents: body.discountCents,
          membershipPriceCents: body.membershipPriceCents,
        }),
    );
  }
}
