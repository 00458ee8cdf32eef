import { Body, Controller, Get, HttpCode, HttpStatus, Patch, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { sessionScope } from '../../platform/database/business-scope';
import { AccountService } from './account.service';
import { ChangePasswordDto } from './dto/change-password.dto';
import { UpdateAccountDto } from './dto/update-account.dto';
import { AccountDetailsDto } from './dto/account-details.dto';
import { MessageReplyDto } from '../../platform/common/dto/message-reply.dto';

/** Account Settings of the signed-in owner (docs/product.md#signed-in-frame account dropdown). Every route needs a session. */
@ApiTags('account')
@ApiCookieAuth('grove_access')
@Controller('account')
export class AccountController {
  constructor(private readonly account: AccountService) {}

  /** → 200 AccountDetails `{ firstName, lastName, email, businessName, phoneNumber, website }`; 401. */
  @Get()
  @ApiOkResponse({ type: AccountDetailsDto })
  @ApiOperation({ summary: "The signed-in owner's account details" })
  get(@CurrentUser() user: AuthUser): Promise<AccountDetailsDto> {
    return this.account.get(sessionScope(user), user);
  }

  /**
   * Body UpdateAccountRequest (any subset of firstName, lastName, businessName, phoneNumber,
   * website). → 200 the updated AccountDetails (`GET /api/auth/me` shows the new name);
   * 400 `{ message, fieldErrors }` with the docs/product.md#validation-signup signup messages; 401.
   */
  @Patch()
  @ApiOkResponse({ type: AccountDetailsDto })
  @ApiOperation({ summary: "Change the owner's name or the business's name, phone or website" })
  update(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateAccountDto,
  ): Promise<AccountDetailsDto> {
    return this.account.update(sessionScope(user), user, body);
  }

  /**
   * Body `{ currentPassword, newPassword }`. → 200 `{ message: 'Your password has been changed' }`;
   * every other session of this user ends and the owner gets a 'password changed' email. 400
   * 'Your current password is not correct' / 'Please enter your current password' / the password
   * rule's messages (contracts' `validatePasswordChange`: 12–128 characters, not common); 401;
   * 429 over THROTTLE_LOGIN_LIMIT per minute (throttler 'auth', as login: it checks a password).
   */
  @Post('password')
  @HttpCode(HttpStatus.OK)
  @ThrottledBy('auth')
  @ApiOkResponse({ type: MessageReplyDto })
  @ApiOperation({ summary: 'Change the password (ends the other sessions)' })
  changePassword(
    @CurrentUser() user: AuthUser,
    @Body() body: ChangePasswordDto,
  ): Promise<MessageReplyDto> {
    return this.account.changePassword(sessionScope(user), user, body);
  }
}
