import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { MemberEmailSettingsDto } from './dto/member-email-settings.dto';
import { MemberNotifications } from './member-notifications.service';

/**
 * Which event emails the signed-in owner's business sends its members (issue 15 part 2; Account
 * Settings → 'Emails to members'). 401 without a session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/member-emails')
export class MemberNotificationsController {
  constructor(private readonly notifications: MemberNotifications) {}

  /** → 200 `MemberEmailSettings` (each email on unless turned off). */
  @Get()
  @ApiOperation({ summary: 'Which emails go to members' })
  @ApiOkResponse({ type: MemberEmailSettingsDto })
  get(@CurrentUser() user: AuthUser): Promise<MemberEmailSettingsDto> {
    return this.notifications.settings(sessionScope(user));
  }

  /**
   * Body: all four settings (`MemberEmailSettings`, JSON booleans). → 200 the saved settings; 400
   * 'Each email setting must be on or off' (a missing, non-boolean or unknown field; nothing changes).
   */
  @Put()
  @ApiOperation({ summary: 'Choose which emails go to members' })
  @ApiOkResponse({ type: MemberEmailSettingsDto })
  put(
    @CurrentUser() user: AuthUser,
    @Body() body: MemberEmailSettingsDto,
  ): Promise<MemberEmailSettingsDto> {
    return this.notifications.saveSettings(sessionScope(user), {
      friendJoined: body.friendJoined,
      branchCounting: body.branchCounting,
      branchEnded: body.branchEnded,
      welcome: body.welcome,
    });
  }
}
