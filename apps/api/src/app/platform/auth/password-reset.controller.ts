import { Body, Controller, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../common/public.decorator';
import { ThrottledBy } from '../common/throttled-by.decorator';
import { AuthCookies } from './auth-cookies';
import { PasswordResetConfirmDto, PasswordResetRequestDto } from './dto/password-reset.dto';
import { PasswordResetService } from './password-reset.service';
import { MessageReplyDto } from '../common/dto/message-reply.dto';
import { SessionUserDto } from './dto/session-user.dto';

/**
 * Forgot password (docs/product.md#forgot-password): ask for a reset link, then use it. Both
 * public, both throttled per client (throttler 'password-reset', THROTTLE_PASSWORD_RESET_LIMIT a
 * minute: 429 'Too many attempts. Please wait a minute and try again.').
 */
@ApiTags('auth')
@Controller('auth/password-reset')
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly cookies: AuthCookies,
  ) {}

  /**
   * Body `{ email }`. → 202 `{ message: 'If an account uses this email, a link to choose a new
   * password is on its way. Check your inbox.' }` for every valid address, known or not (the link
   * is made and emailed in the background); 400 'Not a valid email address'; 429.
   */
  @Public()
  @ThrottledBy('password-reset')
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: MessageReplyDto })
  @ApiOperation({ summary: 'Email a link to choose a new password (same reply for any address)' })
  request(@Body() body: PasswordResetRequestDto): Promise<MessageReplyDto> {
    return this.resets.request(body);
  }

  /**
   * Body `{ token, password }`. → 200 SessionUser, signed in (cookies set); every other session of
   * the owner has ended and the link no longer works. 400 the password rule's message
   * (`fieldErrors.password`: 12–128 characters, not common) with nothing changed; 400 'This link
   * has expired or has already been used. Ask for a new one.'; 429.
   */
  @Public()
  @ThrottledBy('password-reset')
  @Post('confirm')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: SessionUserDto })
  @ApiOperation({ summary: 'Choose a new password with a reset link; ends every other session' })
  async confirm(
    @Body() body: PasswordResetConfirmDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionUserDto> {
    const result = await this.resets.confirm(body, this.cookies.userAgent(request));
    this.cookies.set(response, result.tokens);
    return result.user;
  }
}
