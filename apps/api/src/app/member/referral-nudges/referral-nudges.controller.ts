import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import {
  ReferralNudgePreviewDto,
  ReferralNudgePreviewQueryDto,
  ReferralNudgeSettingsDto,
} from './dto/referral-nudges.dto';
import { ReferralNudgesService } from './referral-nudges.service';

/**
 * The emails that ask members to refer at the right moment (issue 33 item 5; Account Settings →
 * Emails & sharing → 'Asking members to refer'; docs/product.md#referral-nudges). 401 without a
 * session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/referral-nudges')
export class ReferralNudgesController {
  constructor(private readonly nudges: ReferralNudgesService) {}

  /** → 200 `ReferralNudgeSettings` (every nudge off until switched on). */
  @Get()
  @ApiOperation({ summary: 'When members are asked to refer' })
  @ApiOkResponse({ type: ReferralNudgeSettingsDto })
  get(@CurrentUser() user: AuthUser): Promise<ReferralNudgeSettingsDto> {
    return this.nudges.settings(sessionScope(user));
  }

  /**
   * Body: all three settings (`inviteAfterDays` 7–365 or null, `reminderAfterDays` 3–90 or null
   * and only with the invitation, `monthlySummary` boolean). → 200 the saved settings; 400 with
   * the rule's messages (`REFERRAL_NUDGE_MESSAGES`, `fieldErrors`), nothing saved.
   */
  @Put()
  @ApiOperation({ summary: 'Choose when members are asked to refer' })
  @ApiOkResponse({ type: ReferralNudgeSettingsDto })
  put(
    @CurrentUser() user: AuthUser,
    @Body() body: ReferralNudgeSettingsDto,
  ): Promise<ReferralNudgeSettingsDto> {
    return this.nudges.saveSettings(sessionScope(user), {
      inviteAfterDays: body.inviteAfterDays,
      reminderAfterDays: body.reminderAfterDays,
      monthlySummary: body.monthlySummary,
    });
  }

  /**
   * `?kind=invite|reminder|summary` → 200 `ReferralNudgePreview` `{ kind, memberName, subject,
   * html, text }`: the email as the first member by name would get it (the template the run
   * uses; nothing sent, no token issued). 400 unknown kind; 404 'Add a member with an email
   * address to preview this email' when the business has none.
   */
  @Get('preview')
  @ApiOperation({ summary: 'Preview an email that asks members to refer' })
  @ApiOkResponse({ type: ReferralNudgePreviewDto })
  preview(
    @CurrentUser() user: AuthUser,
    @Query() query: ReferralNudgePreviewQueryDto,
  ): Promise<ReferralNudgePreviewDto> {
    return this.nudges.preview(sessionScope(user), query.kind);
  }
}
