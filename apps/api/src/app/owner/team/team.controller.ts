import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthCookies } from '../../platform/auth/auth-cookies';
import { SessionUserDto } from '../../platform/auth/dto/session-user.dto';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { Public } from '../../platform/common/public.decorator';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { sessionScope } from '../../platform/database/business-scope';
import { PasskeyOptionsDto } from '../../platform/auth/passkeys/dto/passkeys.dto';
import {
  InvitationAcceptDto,
  InvitationInfoDto,
  InvitationPasskeyAcceptDto,
  InvitationPasskeyAcceptedDto,
  InvitationPasskeyOptionsDto,
  InvitationTokenDto,
  StaffInvitationDto,
  StaffInvitationRowDto,
  StaffRoleChangeDto,
  TeamDto,
} from './dto/team.dto';
import { TeamService } from './team.service';

/**
 * The team (issue 34 item 1, docs/product.md#staff-accounts): Account Settings' Team card (owners
 * only, by the role table) and the invitation page's public routes (throttled per client like a
 * password reset): look up a link, accept it with a password, or with a passkey in two steps.
 */
@ApiTags('team')
@Controller('team')
export class TeamController {
  constructor(
    private readonly team: TeamService,
    private readonly cookies: AuthCookies,
  ) {}

  /** → 200 Team `{ members, invitations }`; 401; 403 for a role other than owner. */
  @Get()
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: TeamDto })
  @ApiOperation({ summary: "The business's staff and pending invitations" })
  list(@CurrentUser() user: AuthUser): Promise<TeamDto> {
    return this.team.list(sessionScope(user), user);
  }

  /**
   * Body `{ email, role }`. → 201 the pending invitation; the link is emailed. 400 'Not a valid
   * email address' / the role message; 409 'This email already has a Grove account.'; 503 when the
   * email could not be sent (nothing kept).
   */
  @Post('invitations')
  @ApiCookieAuth('grove_access')
  @ApiCreatedResponse({ type: StaffInvitationRowDto })
  @ApiOperation({ summary: 'Invite a member of staff by email (a link valid 7 days, once)' })
  invite(
    @CurrentUser() user: AuthUser,
    @Body() body: StaffInvitationDto,
  ): Promise<StaffInvitationRowDto> {
    return this.team.invite(sessionScope(user), user, body);
  }

  /** → 204, the link stops working; 404 when the business has no such pending invitation. */
  @Delete('invitations/:id')
  @ApiCookieAuth('grove_access')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse()
  @ApiOperation({ summary: 'Revoke a pending invitation' })
  async revokeInvitation(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<void> {
    await this.team.revokeInvitation(sessionScope(user), id);
  }

  /** Body `{ role }`. → 204; 400 the role message; 404; 409 'A business always keeps at least one owner.' */
  @Patch('members/:id')
  @ApiCookieAuth('grove_access')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse()
  @ApiOperation({ summary: "Change a member of staff's role" })
  async changeRole(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: StaffRoleChangeDto,
  ): Promise<void> {
    await this.team.changeRole(sessionScope(user), id, body);
  }

  /** → 204, their sessions ended at once; 404; 409 'A business always keeps at least one owner.' */
  @Delete('members/:id')
  @ApiCookieAuth('grove_access')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse()
  @ApiOperation({ summary: 'Remove a member of staff (their sessions end at once)' })
  async remove(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<void> {
    await this.team.remove(sessionScope(user), id);
  }

  /**
   * Lifts the member of staff's paused sign-in (too many failed sign-ins on their account; the
   * Team card shows `signInPausedSeconds`). → 204 (also when it was not paused); 404 when the
   * business has no such member of staff.
   */
  @Delete('members/:id/sign-in-pause')
  @ApiCookieAuth('grove_access')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse()
  @ApiOperation({ summary: "Lift a member of staff's paused sign-in" })
  async liftSignInPause(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<void> {
    await this.team.liftSignInPause(sessionScope(user), id);
  }

  /**
   * Public. Body `{ token }`. → 200 `{ businessName, email, role }` of a pending invitation; 400
   * 'This invitation link is no longer valid. Ask the owner to invite you again.'; 429.
   */
  @Public()
  @ThrottledBy('password-reset')
  @Post('invitations/lookup')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: InvitationInfoDto })
  @ApiOperation({ summary: 'What an invitation link invites to' })
  lookup(@Body() body: InvitationTokenDto): Promise<InvitationInfoDto> {
    return this.team.lookup(body.token);
  }

  /**
   * Public. Body `{ token, firstName, lastName, password }`. → 200 SessionUser, signed in (cookies
   * set), the link used. 400 'Invalid Name' / the password rule's message (nothing changed, the
   * link still works) / the invalid link message; 409 'This email already has a Grove account.'; 429.
   */
  @Public()
  @ThrottledBy('password-reset')
  @Post('invitations/accept')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: SessionUserDto })
  @ApiOperation({ summary: 'Accept an invitation: choose a name and password, signed in' })
  async accept(
    @Body() body: InvitationAcceptDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionUserDto> {
    const result = await this.team.accept(body, this.cookies.userAgent(request));
    this.cookies.set(response, result.tokens);
    return result.user;
  }

  /**
   * Public. Starts accepting an invitation with a passkey instead of a first password. Body
   * `{ token, firstName, lastName, passkeyName }`. → 200 `{ options }` for
   * `@simplewebauthn/browser`'s `startRegistration` (as `POST /api/account/passkeys/options`, for
   * the account the invitation creates); its challenge works once, for 5 minutes, only for this
   * invitation. 400 'Invalid Name' / the passkey name's message / the invalid link message
   * (nothing used); 429.
   */
  @Public()
  @ThrottledBy('password-reset')
  @Post('invitations/passkey/options')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PasskeyOptionsDto })
  @ApiOperation({ summary: 'Accept an invitation with a passkey: the registration options' })
  async passkeyOptions(@Body() body: InvitationPasskeyOptionsDto): Promise<PasskeyOptionsDto> {
    return { options: (await this.team.passkeyOptions(body)) as Record<string, unknown> };
  }

  /**
   * Public. Accepts an invitation with a passkey. Body `{ token, firstName, lastName, passkeyName,
   * response }` (the browser's answer to the options). → 200 `{ user, recoveryCodes }`: signed in
   * (cookies set), the link used, the passkey added, 10 recovery codes shown once. 400 'Invalid
   * Name' / the passkey name's message / the invalid link message (a second use too) / 'This
   * passkey could not be added. Please try again.' (challenge unknown, used, expired or another
   * invitation's; nothing used); 409 'This passkey is already added to your account.' / 'This email
   * already has a Grove account.'; 429.
   */
  @Public()
  @ThrottledBy('password-reset')
  @Post('invitations/passkey')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: InvitationPasskeyAcceptedDto })
  @ApiOperation({ summary: 'Accept an invitation with a passkey instead of a password, signed in' })
  async acceptWithPasskey(
    @Body() body: InvitationPasskeyAcceptDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<InvitationPasskeyAcceptedDto> {
    const result = await this.team.acceptWithPasskey(body, this.cookies.userAgent(request));
    this.cookies.set(response, result.tokens);
    return { user: result.user, recoveryCodes: result.recoveryCodes };
  }
}
