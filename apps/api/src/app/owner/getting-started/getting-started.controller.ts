import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { GettingStartedDto } from './dto/getting-started.dto';
import { GettingStartedRepository } from './getting-started.repository';
import { GettingStartedReplyDto } from './dto/getting-started-reply.dto';

/**
 * The 'Getting started' checklist on Branches (issue 25, "An owner's ordinary day", Build 4;
 * docs/product.md#getting-started). 401 without a session; only the session's business.
 */
@ApiTags('getting-started')
@ApiCookieAuth('grove_access')
@Controller('getting-started')
export class GettingStartedController {
  constructor(private readonly checklist: GettingStartedRepository) {}

  /**
   * → 200 `GettingStarted` `{ steps: { discount, members, billing, links }, dismissed }`: each
   * step true only when the data shows it done (a default discount per referral saved; at least one
   * member; the members' billing connected: Mindbody credentials checked, stage ≥ 2, or a Stripe
   * member-billing key saved, issue 32; a live referral link), and whether the
   * owner hid the checklist.
   */
  @Get()
  @ApiOkResponse({ type: GettingStartedReplyDto })
  @ApiOperation({ summary: 'The getting-started checklist: which first steps are done' })
  get(@CurrentUser() user: AuthUser): Promise<GettingStartedReplyDto> {
    return this.checklist.find(sessionScope(user));
  }

  /**
   * Body `{ dismissed }` (JSON boolean): hides the checklist for the whole business (true) or
   * shows it again (false). → 200 the checklist; 400 'The checklist must be shown or hidden'.
   */
  @Put()
  @ApiOkResponse({ type: GettingStartedReplyDto })
  @ApiOperation({ summary: 'Hide (or show again) the getting-started checklist' })
  async put(
    @CurrentUser() user: AuthUser,
    @Body() body: GettingStartedDto,
  ): Promise<GettingStartedReplyDto> {
    const scope = sessionScope(user);
    await this.checklist.setDismissed(scope, body.dismissed);
    return this.checklist.find(scope);
  }
}
