import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import {
  ReferralNudgePreviewDto,
  ReferralNudgePreviewQueryDto,
  ReferralNudgeSettingsDto,
  ReferralNudgeSettingsReplyDto,
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

  /**
   * → 200 `ReferralNudgeSettingsReply` (every nudge off until switched on; `visitsAvailable`: the
   * invitation can follow the Nth visit, Mindbody being connected with its members imported).
   */
  @Get()
  @ApiOperation({ summary: 'When members are asked to refer' })
  @ApiOkResponse({ type: ReferralNudgeSettingsReplyDto })
  get(@CurrentUser() user: AuthUser): Promise<ReferralNudgeSettingsReplyDto> {
    return this.nudges.settings(sessionScope(user));
  }

  /**
   * Body: the settings (`inviteAfterDays` 7–365 or null; or `inviteAfterVisits` 1–100, null or
   * absent — never both; `reminderAfterDays` 3–90 or null and only with an invitation,
   * `monthlySummary` boolean). → 200 the saved settings with `visitsAvailable`; 400 with the
   * rule's messages (`REFERRAL_NUDGE_MESSAGES`, `fieldErrors`), nothing saved — also for
   * `inviteAfterVisits` where Mindbody is not connected with members imported ('Connect Mindbody
   * and import your members first: Grove reads visits from Mindbody').
   */
  @Put()
  @ApiOperation({ summary: 'Choose when members are asked to refer' })
  @ApiOkResponse({ type: ReferralNudgeSettingsReplyDto })
  put(
    @CurrentUser() user: AuthUser,
    @Body() body: ReferralNudgeSettingsDto,
  ): Promise<ReferralNudgeSettingsReplyDto> {
    return this.nudges.saveSettings(sessionScope(user), {
      inviteAfterDays: body.inviteAfterDays,
      inviteAfterVisits: body.inviteAfterVisits ?? null,
      reminderAfterDays: body.reminderAfterDays,
      monthlySummary: body.monthlySummary,
    });
  }

  /**
   * `?kind=invite|reminder|summary[&visits=N]` → 200 `ReferralNudgePreview` `{ kind, memberName,
   * subject, html, text }`: the email as the first member by name would get it (the template the
   * run uses; nothing sent, no token issued); with `visits` (1–100) the invitation after the Nth
   * visit, for the first Mindbody member. 400 unknown kind or visits out of range; 404 'Add a
   * member with an email address to preview this email' when the business has none (of that kind).
   */
  @Get('preview')
  @ApiOperation({ summary: 'Preview an email that asks members to refer' })
  @ApiOkResponse({ type: ReferralNudgePreviewDto })
  preview(
    @CurrentUser() user: AuthUser,
    @Query() query: ReferralNudgePreviewQueryDto,
  ): Promise<ReferralNudgePreviewDto> {
    return this.nudges.preview(sessionScope(user), query.kind, new Date(), query.visits ?? null);
  }
}
