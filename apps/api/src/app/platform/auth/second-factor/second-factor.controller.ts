import { Body, Controller, Get, HttpCode, HttpStatus, Post, Put, Req, Res } from '@nestjs/common';
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
import { SessionUserDto } from '../dto/session-user.dto';
import {
  FactorProofDto,
  RecoveryCodesDto,
  SecondFactorAnswerDto,
  SecondFactorRequirementDto,
  SecondFactorStatusDto,
  TotpCodeDto,
  TotpEnrolmentDto,
} from './dto/second-factor.dto';
import { SecondFactorSignIn } from './second-factor-sign-in.service';
import { SecondFactorService } from './second-factor.service';

/**
 * A second factor (issue 34 item 3, docs/product.md#second-factor): the sign-in's second step
 * (public, throttled like the login) and the signed-in user's own authenticator app (Account
 * Settings' Security card; every role manages their own).
 */
@ApiTags('auth')
@Controller()
export class SecondFactorController {
  constructor(
    private readonly secondFactor: SecondFactorService,
    private readonly signIn: SecondFactorSignIn,
    private readonly cookies: AuthCookies,
  ) {}

  /**
   * The sign-in's second step. Body `{ challenge, code }` (the login's 202 reply's challenge; a
   * 6-digit code or a recovery code). → 200 SessionUser, cookies set, the challenge used; 400 'Enter
   * the 6-digit code…' (shape) / 'That code is not correct…' (counted: 5 per challenge, and each as
   * a failed sign-in of the account); 401 'This sign-in has expired. Please sign in again.'; 429
   * per client (THROTTLE_LOGIN_LIMIT) or when the account's sign-in is paused.
   */
  @Public()
  @ThrottledBy('login')
  @Post('auth/second-factor')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: SessionUserDto })
  @ApiOperation({ summary: 'Sign in, step 2: the code from the authenticator app' })
  async answer(
    @Body() body: SecondFactorAnswerDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionUserDto> {
    const result = await this.signIn.answer(
      body.challenge,
      body.code,
      this.cookies.userAgent(request),
    );
    this.cookies.set(response, result.tokens);
    return result.user;
  }

  /** → 200 `{ totp, recoveryCodesLeft }` of the signed-in user. */
  @Get('account/second-factor')
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: SecondFactorStatusDto })
  @ApiOperation({ summary: 'Whether sign-in asks for a code, and recovery codes left' })
  status(@CurrentUser() user: AuthUser): Promise<SecondFactorStatusDto> {
    return this.secondFactor.status(sessionScope(user), user);
  }

  /**
   * Starts setting up an authenticator app. → 201 `{ secret, uri, qrSvg }` (shown once; an
   * earlier unconfirmed setup is replaced); 409 when one is already set up.
   */
  @Post('account/second-factor/totp')
  @ApiCookieAuth('grove_access')
  @ApiCreatedResponse({ type: TotpEnrolmentDto })
  @ApiOperation({ summary: 'Start setting up an authenticator app' })
  startTotp(@CurrentUser() user: AuthUser): Promise<TotpEnrolmentDto> {
    return this.secondFactor.startTotp(sessionScope(user), user);
  }

  /**
   * Body `{ code }`: a code the app shows. → 200 `{ recoveryCodes }` (10, shown once); sign-in
   * asks for a code from now on. 400 the code's shape / 'That code is not correct…'; 409 when no
   * setup was started or it is confirmed already. Throttled per client like the login.
   */
  @ThrottledBy('login')
  @Post('account/second-factor/totp/confirm')
  @HttpCode(HttpStatus.OK)
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiOperation({ summary: 'Confirm the authenticator app with a code; get recovery codes' })
  async confirmTotp(
    @CurrentUser() user: AuthUser,
    @Body() body: TotpCodeDto,
  ): Promise<RecoveryCodesDto> {
    return {
      recoveryCodes: await this.secondFactor.confirmTotp(sessionScope(user), user, body.code),
    };
  }

  /**
   * Body `{ code }` (app or recovery code) or `{ password }`. → 204, sign-in no longer asks for a
   * code, the recovery codes deleted; 400 'Enter a code…, a recovery code or your password' /
   * 'That code or password is not correct.'; 409 when no app is set up. Throttled per client.
   */
  @ThrottledBy('login')
  @Post('account/second-factor/totp/disable')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiCookieAuth('grove_access')
  @ApiNoContentResponse()
  @ApiOperation({ summary: 'Turn off the authenticator app (needs a code or the password)' })
  async disableTotp(@CurrentUser() user: AuthUser, @Body() body: FactorProofDto): Promise<void> {
    await this.secondFactor.disableTotp(sessionScope(user), user, body);
  }

  /**
   * New recovery codes. Body `{ code }` (app or recovery code) or `{ password }`. → 200
   * `{ recoveryCodes }`: 10 new codes (`xxxxx-xxxxx`), shown once; every earlier code, used or
   * not, stops working. 400 'Enter a code…, a recovery code or your password' / 'That code or
   * password is not correct.'; 409 'Set up an authenticator app or a passkey first.' when the user
   * has no second factor. Throttled per client like the login.
   */
  @ThrottledBy('login')
  @Post('account/second-factor/recovery-codes')
  @HttpCode(HttpStatus.OK)
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiOperation({ summary: 'Replace the recovery codes (needs a code or the password)' })
  async replaceRecoveryCodes(
    @CurrentUser() user: AuthUser,
    @Body() body: FactorProofDto,
  ): Promise<RecoveryCodesDto> {
    return {
      recoveryCodes: await this.secondFactor.replaceRecoveryCodes(sessionScope(user), user, body),
    };
  }

  /**
   * Body `{ required }`: the business requires (or no longer requires) a second factor of every
   * member of staff; one without is sent to set one up at their next sign-in. → 200 the caller's
   * SecondFactorStatus; 400 'Choose whether to require a second factor'; 409 'Set up your own
   * authenticator app first.' (owners only, by the role table).
   */
  @Put('settings/second-factor')
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: SecondFactorStatusDto })
  @ApiOperation({ summary: 'Require a second factor of every member of staff' })
  setRequirement(
    @CurrentUser() user: AuthUser,
    @Body() body: SecondFactorRequirementDto,
  ): Promise<SecondFactorStatusDto> {
    return this.secondFactor.setBusinessRequirement(sessionScope(user), user, body.required);
  }
}
