import { Controller, Get } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../../platform/config/app-config';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { EmailSendingDto } from './dto/email-sending.dto';
import { MemberEmailsRepository } from './member-emails.repository';

/** Whether member emails go out or wait, and why (issue 34 item 4, docs/product.md#verified-senders). */
@ApiTags('member-emails')
@ApiCookieAuth('grove_access')
@Controller('member-emails')
export class SendingController {
  constructor(
    private readonly emails: MemberEmailsRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * → 200 `EmailSending`: whether an owner verified their email (always true with
   * SENDER_VERIFICATION off), how many member emails wait for it and for tomorrow's cap, how
   * many went out today and the cap (MEMBER_EMAIL_DAILY_CAP, per UTC day).
   */
  @Get('sending')
  @ApiOperation({ summary: 'Whether member emails go out now, and what waits' })
  @ApiOkResponse({ type: EmailSendingDto })
  async sending(@CurrentUser() user: AuthUser): Promise<EmailSendingDto> {
    const status = await this.emails.sending(sessionScope(user));
    return {
      senderVerified: status.senderVerified || !this.config.dataRights.senderVerification,
      waitingForVerification: status.held.unverified_sender,
      waitingForTomorrow: status.held.daily_cap,
      deliveredToday: status.deliveredToday,
      dailyCap: this.config.dataRights.memberEmailDailyCap,
    };
  }
}
