import { Controller, Get, HttpCode, HttpStatus, Param, Post, Redirect } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MEMBER_PAGE_MESSAGES } from '@grove/contracts';
import { Public } from '../../platform/common/public.decorator';
import { MessageReplyDto } from '../../platform/common/dto/message-reply.dto';
import { UnsubscribeStatusDto } from './dto/unsubscribe-reply.dto';
import { UnsubscribeTokenUnknownException } from './member-emails.exceptions';
import { MemberEmailsRepository } from './member-emails.repository';

/** An unsubscribe token as emails carry it: 43 base64url characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The public unsubscribe endpoints of member emails (RFC 8058 one-click and the page's button).
 * The token names one member of one business; it can only unsubscribe.
 */
@ApiTags('member-emails')
@Public()
@Controller('member-emails/unsubscribe')
export class UnsubscribeController {
  constructor(private readonly emails: MemberEmailsRepository) {}

  /**
   * → 302 to the unsubscribe page `/member/unsubscribe/<token>` (a mail client without one-click
   * opens the List-Unsubscribe URL in a browser; GET never unsubscribes: link scanners fetch it).
   */
  @Get(':token')
  @Redirect()
  @ApiOperation({ summary: 'Open the unsubscribe page' })
  @ApiFoundResponse({
    description: 'Redirect to the unsubscribe page (its URL in `Location`)',
    headers: {
      Location: { description: '/member/unsubscribe/<token>', schema: { type: 'string' } },
    },
    content: {
      'text/html': { schema: { type: 'string' } },
      'text/plain': { schema: { type: 'string' } },
    },
  })
  page(@Param('token') token: string): { url: string } {
    return { url: `/member/unsubscribe/${TOKEN.test(token) ? token : ''}` };
  }

  /** → 200 `{ businessName, unsubscribed }` for the page; 404 unknown token. */
  @Get(':token/status')
  @ApiOperation({ summary: 'Which business an unsubscribe link is of' })
  @ApiOkResponse({ type: UnsubscribeStatusDto })
  async status(@Param('token') token: string): Promise<UnsubscribeStatusDto> {
    const found = TOKEN.test(token) ? await this.emails.subscription(token) : null;
    if (!found) throw new UnsubscribeTokenUnknownException();
    return found;
  }

  /**
   * → 200 `{ message }`: the member gets no more member emails (RFC 8058 one-click POST with body
   * `List-Unsubscribe=One-Click`, or the page's button); idempotent. 404 unknown token.
   */
  @Post(':token')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Unsubscribe a member from member emails (RFC 8058 one-click)' })
  @ApiOkResponse({ type: MessageReplyDto })
  async unsubscribe(@Param('token') token: string): Promise<MessageReplyDto> {
    const business = TOKEN.test(token) ? await this.emails.unsubscribe(token) : null;
    if (!business) throw new UnsubscribeTokenUnknownException();
    return { message: MEMBER_PAGE_MESSAGES.unsubscribed };
  }
}
