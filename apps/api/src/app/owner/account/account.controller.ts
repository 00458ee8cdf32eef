import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { SessionsService } from '../../platform/auth/sessions.service';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { sessionScope } from '../../platform/database/business-scope';
import { AccountService } from './account.service';
import { ChangePasswordDto } from './dto/change-password.dto';
import { SetPasswordDto } from './dto/set-password.dto';
import { PasskeysService } from '../../platform/auth/passkeys/passkeys.service';
import { PasskeyOptionsDto } from '../../platform/auth/passkeys/dto/passkeys.dto';
import { UpdateAccountDto } from './dto/update-account.dto';
import { AccountDetailsDto } from './dto/account-details.dto';
import { MessageReplyDto } from '../../platform/common/dto/message-reply.dto';
import { SignedInSessionDto, SignedOutSessionsDto } from './dto/signed-in-session.dto';

/** Account Settings of the signed-in owner (docs/product.md#signed-in-frame account dropdown). Every route needs a session. */
@ApiTags('account')
@ApiCookieAuth('grove_access')
@Controller('account')
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly sessions: SessionsService,
    private readonly passkeys: PasskeysService,
  ) {}

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

  /**
   * 'Set a password', step 1 (an account that joined with a passkey, docs/decisions/passkeys.md):
   * → 200 `{ options }`, `@simplewebauthn/browser`'s `startAuthentication` options allowing only
   * the signed-in user's passkeys (user verification required; the challenge works once, for 5
   * minutes, and only for this user); 400 "Your passkey could not confirm it's you. Please try
   * again." when the user has no passkey; 401; 429 over THROTTLE_LOGIN_LIMIT per minute
   * (throttler 'auth').
   */
  @Post('password/set/options')
  @HttpCode(HttpStatus.OK)
  @ThrottledBy('auth')
  @ApiOkResponse({ type: PasskeyOptionsDto })
  @ApiOperation({ summary: "'Set a password': options for a passkey to confirm it is you" })
  async setPasswordOptions(@CurrentUser() user: AuthUser): Promise<PasskeyOptionsDto> {
    return { options: (await this.passkeys.confirmOptions(user)) as Record<string, unknown> };
  }

  /**
   * 'Set a password', step 2. Body `{ newPassword, response }` (the browser's answer to step 1's
   * options). → 200 `{ message: 'Your password has been set' }`; every other session of this user
   * and every unused reset link ends, and the 'password changed' email is queued (one
   * transaction). 400 the password rule's messages (12–128 characters, not common; nothing
   * changed, the passkey's challenge unused) / "Your passkey could not confirm it's you. Please
   * try again." (another user's passkey or challenge, a used or expired challenge) / 'The passkey
   * did not answer. Please try again.' (no `response`); 409 'Your account already has a password.
   * Use Change password instead.' when its person chose one already; 401; 429 (throttler 'auth').
   */
  @Post('password/set')
  @HttpCode(HttpStatus.OK)
  @ThrottledBy('auth')
  @ApiOkResponse({ type: MessageReplyDto })
  @ApiOperation({ summary: 'Set a first password (an account that joined with a passkey)' })
  setPassword(
    @CurrentUser() user: AuthUser,
    @Body() body: SetPasswordDto,
  ): Promise<MessageReplyDto> {
    return this.account.setPassword(sessionScope(user), user, body);
  }

  /**
   * 'Where you're signed in' (issue 34): → 200 the owner's live sign-ins, this browser's first
   * (`current`), each `{ id, device, signedInAt, lastActiveAt, current }`; 401. Only the signed-in
   * user's own.
   */
  @Get('sessions')
  @ApiOkResponse({ type: SignedInSessionDto, isArray: true })
  @ApiOperation({ summary: "Where you're signed in: the owner's live sign-ins" })
  signIns(@CurrentUser() user: AuthUser): Promise<SignedInSessionDto[]> {
    return this.sessions.signIns(user);
  }

  /**
   * Signs out every other browser of the owner: → 200 `{ ended }` (sessions ended at once: their
   * next request is 401); this one stays signed in; 401.
   */
  @Post('sessions/sign-out-others')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: SignedOutSessionsDto })
  @ApiOperation({ summary: 'Sign out everywhere else' })
  async signOutOthers(@CurrentUser() user: AuthUser): Promise<SignedOutSessionsDto> {
    if (!user.sessionId) return { ended: 0 };
    return { ended: await this.sessions.revokeOthers(user.userId, user.sessionId) };
  }

  /**
   * Signs out one sign-in (an `id` of `GET /api/account/sessions`; this browser's too, as 'Log
   * out'): → 204, its sessions end at once; 400 when `id` is not a UUID; 404 'Sign-in not found'
   * when the owner has no live sign-in of that id (another user's is never touched); 401.
   */
  @Delete('sessions/:id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse()
  @ApiOperation({ summary: 'Sign out one browser' })
  async endSignIn(
    @CurrentUser() user: AuthUser,
    @Param('id', new ParseUUIDPipe()) id: string,
  ): Promise<void> {
    if (!(await this.sessions.endSignIn(user, id)))
      throw new NotFoundException('Sign-in not found');
  }
}
