import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { VERIFICATION_INVALID_MESSAGE } from '@grove/contracts';
import { CurrentUser, type AuthUser } from '../../common/auth-user';
import { MessageReplyDto } from '../../common/dto/message-reply.dto';
import { Public } from '../../common/public.decorator';
import { ThrottledBy } from '../../common/throttled-by.decorator';
import { EmailVerificationService } from './email-verification.service';

/** Body of `POST /api/auth/verify-email`: the link's token. */
export class VerifyEmailDto {
  @ApiProperty({ type: String })
  @IsString({ message: VERIFICATION_INVALID_MESSAGE })
  @MaxLength(200, { message: VERIFICATION_INVALID_MESSAGE })
  token!: string;
}

/** Verified senders (issue 34 item 4, docs/product.md#verified-senders). */
@ApiTags('auth')
@Controller()
export class EmailVerificationController {
  constructor(private readonly verification: EmailVerificationService) {}

  /**
   * Public, throttled like a password reset. Body `{ token }` → 200 `{ message }`: the owner's
   * email is verified and the business's waiting member emails go out. 400 the link is not
   * valid (unknown, used, older than 24 hours); 429.
   */
  @Public()
  @ThrottledBy('password-reset')
  @Post('auth/verify-email')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: "Verify the owner's email with the link's token" })
  @ApiOkResponse({ type: MessageReplyDto })
  verify(@Body() body: VerifyEmailDto): Promise<MessageReplyDto> {
    return this.verification.verify(body.token);
  }

  /** → 202 `{ message }`: a new link is emailed. 409 already verified; 429 past 5 an hour. */
  @Post('account/email-verification')
  @ApiCookieAuth('grove_access')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Send a new email verification link' })
  @ApiAcceptedResponse({ type: MessageReplyDto })
  resend(@CurrentUser() user: AuthUser): Promise<MessageReplyDto> {
    return this.verification.resend(user.userId);
  }
}
