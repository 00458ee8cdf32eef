import { Body, Controller, Get, HttpCode, HttpStatus, Post, Put } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { ReferralLinkRunDto } from './dto/referral-link-run.dto';
import { ReferralLinkSettingsDto } from './dto/referral-link-settings.dto';
import { LinksForEveryoneService } from './links-for-everyone.service';

/**
 * Links for everyone on the Referral Links screen (docs/product.md#referral-links): one click
 * gives every member without a live link one (a background run with progress), and a setting
 * gives every new member one at once. The business is always the session's. 401 without a
 * session; 400 for a malformed setting.
 */
@ApiTags('referrals')
@ApiCookieAuth('grove_access')
@Controller('referral-links')
export class LinksForEveryoneController {
  constructor(private readonly links: LinksForEveryoneService) {}

  /** → 200 `ReferralLinkRun`: the latest run ('idle' when none) and members without a link now. */
  @Get('all')
  @ApiOperation({ summary: "Progress of 'Create links for all members without one'" })
  @ApiOkResponse({ type: ReferralLinkRunDto })
  status(@CurrentUser() user: AuthUser): Promise<ReferralLinkRunDto> {
    return this.links.status(sessionScope(user));
  }

  /**
   * → 202 `ReferralLinkRun`: starts the run (idempotent: a run already going is returned as it
   * is; with every member linked it is 'done' at once with nothing created).
   */
  @Post('all')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Create links for all members without one' })
  @ApiAcceptedResponse({ type: ReferralLinkRunDto })
  start(@CurrentUser() user: AuthUser): Promise<ReferralLinkRunDto> {
    return this.links.startAll(sessionScope(user));
  }

  /** → 200 `ReferralLinkSettings`. */
  @Get('settings')
  @ApiOperation({ summary: 'Whether new members get a referral link automatically' })
  @ApiOkResponse({ type: ReferralLinkSettingsDto })
  settings(@CurrentUser() user: AuthUser): Promise<ReferralLinkSettingsDto> {
    return this.links.settings(sessionScope(user));
  }

  /** → 200 `ReferralLinkSettings`; 400 when `autoCreate` is not a boolean. */
  @Put('settings')
  @ApiOperation({ summary: 'Turn automatic referral links for new members on or off' })
  @ApiOkResponse({ type: ReferralLinkSettingsDto })
  updateSettings(
    @CurrentUser() user: AuthUser,
    @Body() body: ReferralLinkSettingsDto,
  ): Promise<ReferralLinkSettingsDto> {
    return this.links.updateSettings(sessionScope(user), body);
  }
}
