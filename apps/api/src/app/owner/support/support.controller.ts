import { Body, Controller, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { SupportIssueDto } from './dto/support-issue.dto';
import { SupportService } from './support.service';
import { MessageReplyDto } from '../../platform/common/dto/message-reply.dto';

/** The sidebar's Contact Support issue form (docs/product.md#issue-form Issue form; docs/product.md#calls `/jira/bugfix`). Signed in. */
@ApiTags('support')
@ApiCookieAuth('grove_access')
@Controller('support')
export class SupportController {
  constructor(private readonly support: SupportService) {}

  /**
   * Body SupportIssueRequest `{ summary, description }` (title ≤ 200, description ≤ 5000, both
   * required). → 201 `{ message: 'Successfully submitted request!' }` once stored (Jira is filed
   * in the background); 400 `{ message, fieldErrors }` 'Please enter an issue title' / 'Please
   * describe the issue'; 401 signed out; 429 over THROTTLE_SUPPORT_LIMIT per client per minute.
   */
  @Post('issues')
  @ThrottledBy('support')
  @ApiCreatedResponse({ type: MessageReplyDto })
  @ApiOperation({ summary: 'Report an issue to the Grove team' })
  report(@CurrentUser() user: AuthUser, @Body() body: SupportIssueDto): Promise<MessageReplyDto> {
    return this.support.report(user, body.toInput());
  }
}
