import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  ParseUUIDPipe,
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
import { CurrentUser, type AuthUser } from '../../common/auth-user';
import { Public } from '../../common/public.decorator';
import { ThrottledBy } from '../../common/throttled-by.decorator';
import { sessionScope } from '../../database/business-scope';
import { AuthCookies } from '../auth-cookies';
import { AuthService } from '../auth.service';
import { SessionUserDto } from '../dto/session-user.dto';
import { SessionsService } from '../sessions.service';
import { FactorProofDto } from '../second-factor/dto/second-factor.dto';
import type { PasskeyRow } from './passkeys.repository';
import { PasskeysService } from './passkeys.service';
import {
  AddedPasskeyDto,
  AddPasskeyDto,
  PasskeyDto,
  PasskeyOptionsDto,
  PasskeySignInDto,
  PasskeySignInOptionsDto,
} from './dto/passkeys.dto';

const toDto = (row: PasskeyRow): PasskeyDto => ({
  id: row.id,
  name: row.name,
  backedUp: row.backedUp,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * Passkeys (issue 34 item 3, docs/product.md#passkeys, docs/decisions/passkeys.md): each user
 * registers, lists and removes their own in Account Settings' Security card, and signs in with
 * one (without a password, or as the step after it). Options carry a challenge stored
 * server-side for 5 minutes and used once.
 */
@ApiTags('auth')
@Controller()
export class PasskeysController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly cookies: AuthCookies,
  ) {}

  /** → 200 the signed-in user's passkeys, oldest first: `[{ id, name, backedUp, createdAt, lastUsedAt }]`. */
  @Get('account/passkeys')
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: [PasskeyDto] })
  @ApiOperation({ summary: 'Your passkeys' })
  async list(@CurrentUser() user: AuthUser): Promise<PasskeyDto[]> {
    return (await this.passkeys.list(sessionScope(user), user)).map(toDto);
  }

  /**
   * Starts adding a passkey. → 200 `{ options }` for `@simplewebauthn/browser`'s
   * `startRegistration` (RP ID: PUBLIC_ORIGIN's host; a discoverable credential with user
   * verification; attestation 'none'; the user's passkeys excluded); its challenge works once,
   * for 5 minutes, and ends the user's earlier one.
   */
  @Post('account/passkeys/options')
  @HttpCode(HttpStatus.OK)
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: PasskeyOptionsDto })
  @ApiOperation({ summary: 'Options to add a passkey' })
  async registrationOptions(@CurrentUser() user: AuthUser): Promise<PasskeyOptionsDto> {
    return {
      options: (await this.passkeys.registrationOptions(sessionScope(user), user)) as Record<
        string,
        unknown
      >,
    };
  }

  /**
   * Adds the passkey the browser created. Body `{ name, response }` (name: 1–60 characters of
   * text, contracts' `validatePasskeyName`). → 201 `{ passkey, recoveryCodes? }` (10 recovery
   * codes, shown once, when this is the account's first second factor); 400 the name's message,
   * 'The passkey did not answer…' without a response, 'This passkey could not be added…' when it
   * does not verify (challenge unknown, used, expired or another user's; origin, RP ID, user
   * verification); 409 'This passkey is already added…'. Throttled per client like the login.
   */
  @ThrottledBy('login')
  @Post('account/passkeys')
  @ApiCookieAuth('grove_access')
  @ApiCreatedResponse({ type: AddedPasskeyDto })
  @ApiOperation({ summary: 'Add a passkey' })
  async add(@CurrentUser() user: AuthUser, @Body() body: AddPasskeyDto): Promise<AddedPasskeyDto> {
    const added = await this.passkeys.add(sessionScope(user), user, body.name, body.response);
    return { ...added, passkey: toDto(added.passkey) };
  }

  /**
   * Removes one of the signed-in user's passkeys (`id`: uuid) after a proof, as turning off the
   * app: body `{ code }` (app or recovery code) or `{ password }`. With no second factor left the
   * recovery codes go too. → 204; 400 when `id` is not a uuid, 'Enter a code…, a recovery code or
   * your password' / 'That code or password is not correct.' (nothing removed, a code stays
   * unused); 404 'That passkey was already removed.' (also another user's); 409 'Set a password
   * before removing your last passkey.' for the last passkey of an account that joined with a
   * passkey and never set a password (nothing removed). Throttled per client like the login.
   */
  @ThrottledBy('login')
  @Post('account/passkeys/:id/remove')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiCookieAuth('grove_access')
  @ApiNoContentResponse()
  @ApiOperation({ summary: 'Remove a passkey (needs a code or the password)' })
  async remove(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: FactorProofDto,
  ): Promise<void> {
    await this.passkeys.remove(sessionScope(user), user, id, body);
  }

  /**
   * Sign-in options. Body `{ challenge? }`: without it, for a sign-in without a password (the
   * browser offers the user's passkeys for Grove); with the login's 202 challenge, only that
   * user's passkeys. → 200 `{ options }` for `startAuthentication` (user verification required;
   * the challenge works once, for 5 minutes); 401 'This sign-in has expired…' when the 202
   * challenge is not live. Throttled per client like the login.
   */
  @Public()
  @ThrottledBy('login')
  @Post('auth/passkey/options')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PasskeyOptionsDto })
  @ApiOperation({ summary: 'Options to sign in with a passkey' })
  async signInOptions(@Body() body: PasskeySignInOptionsDto): Promise<PasskeyOptionsDto> {
    return {
      options: (await this.passkeys.signInOptions(body.challenge)) as Record<string, unknown>,
    };
  }

  /**
   * Signs in with a passkey. Body `{ response }` from `startAuthentication`. → 200 SessionUser,
   * cookies set, the challenge used (and the user's pending password step ended), with
   * `passwordChangeRequired: true` while the user's password is one a password sign-in found no
   * longer meets Grove's rule (docs/decisions/passkeys.md); 400 'The passkey
   * did not answer…' without a response; 401 'This passkey could not sign you in…' (unknown
   * passkey, challenge unknown, used or expired, another user's passkey for a 202 challenge,
   * origin, RP ID, user verification, signature, or a counter that did not grow); 403 for staff
   * other than owners of a closing business. Throttled per client like the login.
   */
  @Public()
  @ThrottledBy('login')
  @Post('auth/passkey')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: SessionUserDto })
  @ApiOperation({ summary: 'Sign in with a passkey' })
  async signIn(
    @Body() body: PasskeySignInDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionUserDto> {
    const { userId } = await this.passkeys.signIn(body.response);
    await this.auth.assertMaySignIn(userId);
    const session = await this.sessions.open(userId, this.cookies.userAgent(request));
    const result = await this.auth.passkeyResult(userId, session);
    this.cookies.set(response, result.tokens);
    return result.user;
  }
}
