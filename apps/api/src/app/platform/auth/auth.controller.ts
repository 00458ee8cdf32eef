import { Body, Controller, Get, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser, type AuthUser } from '../common/auth-user';
import { Public } from '../common/public.decorator';
import { ThrottledBy } from '../common/throttled-by.decorator';
import { AuthCookies } from './auth-cookies';
import { RefreshRefusedException } from './auth.exceptions';
import { AuthService } from './auth.service';
import { JwtAuthGuard } from './jwt-auth.guard';
import { LoginDto } from './dto/login.dto';
import { SignupDto } from './dto/signup.dto';
import { SignupAcceptedDto, SignupConfirmDto } from './dto/signup-confirm.dto';
import { LocalAuthGuard } from './local-auth.guard';
import { SessionUserDto } from './dto/session-user.dto';
import { SecondFactorChallengeDto } from './second-factor/dto/second-factor.dto';
import { SecondFactorSignIn } from './second-factor/second-factor-sign-in.service';

/** Sign-up, sign-in and sessions. Tokens travel only in httpOnly cookies. */
@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly cookies: AuthCookies,
    private readonly guard: JwtAuthGuard,
    private readonly secondFactor: SecondFactorSignIn,
  ) {}

  /**
   * Signs up by email (docs/product.md#signup): the same answer, status and work for every
   * address, so it tells nobody whether an account uses it (issue 31 item 6). A new address gets
   * a link to finish ({@link confirmSignup}, 24 hours, once); a taken one gets 'Someone tried to
   * create a Grove account with your email'. No cookies.
   * → 202 `{ status: 'check-email' }`; 400 first docs/product.md#validation-signup message;
   * 429 after too many attempts (throttler 'auth').
   */
  @Public()
  @ThrottledBy('auth')
  @Post('signup')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: SignupAcceptedDto })
  @ApiOperation({ summary: 'Sign up: email a link that creates the business and its owner' })
  signup(@Body() body: SignupDto): Promise<SignupAcceptedDto> {
    return this.auth.signup(body.toInput());
  }

  /**
   * Uses the emailed sign-up link (posted by the page `/signup/confirm`, never on GET, so link
   * scanners do not use it): creates the business and its owner from the sign-up, then signs in
   * (sets both cookies). Body `{ token }`.
   * → 201 SessionUser; 400 'This link has expired or was already used. Sign up again.' (unknown,
   * used or expired; nothing created); 409 'An account with this email already exists. Log in
   * instead.' (nothing created); 429 (throttler 'auth').
   */
  @Public()
  @ThrottledBy('auth')
  @Post('signup/confirm')
  @ApiCreatedResponse({ type: SessionUserDto })
  @ApiOperation({ summary: 'Finish a sign-up with its emailed link, and sign in' })
  async confirmSignup(
    @Body() body: SignupConfirmDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionUserDto> {
    const result = await this.auth.confirmSignup(body.token, this.cookies.userAgent(request));
    this.cookies.set(response, result.tokens);
    return result.user;
  }

  /**
   * Signs in with email and password (sets both cookies).
   * → 200 SessionUser (with `passwordChangeRequired: true` when the password no longer meets
   * Grove's rule: at least 12 characters, not a common password); 400 'Please add to email and
   * password fields' when both are empty;
   * 401 'Password or username does not match any user'; 429 after THROTTLE_LOGIN_LIMIT failed
   * logins from one client within a minute (throttler 'login': successful logins do not count),
   * and for 15 minutes after THROTTLE_ACCOUNT_LOGIN_LIMIT failed logins of one account from any
   * clients (`LoginThrottle`, docs/product.md#validation-login).
   * → 202 `{ secondFactorRequired: true, challenge }` and no cookies when the user has set up an
   * authenticator app: the code goes to `POST /api/auth/second-factor` within 5 minutes
   * (docs/product.md#second-factor).
   */
  @Public()
  @ThrottledBy('login', LocalAuthGuard)
  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiBody({ type: LoginDto })
  @ApiOkResponse({ type: SessionUserDto })
  @ApiAcceptedResponse({ type: SecondFactorChallengeDto })
  @ApiOperation({ summary: 'Sign in' })
  async login(
    @CurrentUser() user: AuthUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionUserDto | SecondFactorChallengeDto> {
    const result = await this.secondFactor.afterPassword(user, this.cookies.userAgent(request));
    if ('secondFactorRequired' in result) {
      response.status(HttpStatus.ACCEPTED);
      return result;
    }
    this.cookies.set(response, result.tokens);
    return result.user;
  }

  /**
   * Exchanges the refresh cookie for new tokens (rotation: the old one is revoked). A refresh
   * token rotated less than REFRESH_REUSE_GRACE_SECONDS ago (another tab refreshed first) gets a
   * new access cookie for the live session and keeps the refresh cookie the browser now holds.
   * → 200 SessionUser; 401 (cookies cleared) when the token is missing, unknown, expired, past the
   * session's idle or absolute deadline, or revoked (reuse after the grace window also revokes
   * every session of that sign-in).
   */
  @Public()
  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: SessionUserDto })
  @ApiOperation({ summary: 'Rotate the refresh token and issue a new access token' })
  async refresh(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionUserDto> {
    try {
      const result = await this.auth.refresh(
        this.cookies.readRefreshToken(request),
        this.cookies.userAgent(request),
      );
      this.cookies.set(response, result.tokens);
      return result.user;
    } catch (error) {
      if (error instanceof RefreshRefusedException) this.cookies.clear(response);
      throw error;
    }
  }

  /**
   * Signs out: revokes the sign-in of the refresh cookie and that of the access token (cookie or
   * `Authorization: Bearer`, verified, expired accepted), so a Bearer-only client ends its session
   * too; clears the cookies. → 204 (also without any session)
   */
  @Public()
  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiOperation({ summary: 'Sign out: revoke the session and clear the cookies' })
  async logout(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.auth.logout(
      this.cookies.readRefreshToken(request),
      this.guard.sessionIdOf(request) ?? undefined,
    );
    this.cookies.clear(response);
  }

  /** The signed-in owner and business. → 200 SessionUser; 401 without a valid session. */
  @Get('me')
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: SessionUserDto })
  @ApiOperation({ summary: 'The signed-in user' })
  me(@CurrentUser() user: AuthUser): Promise<SessionUserDto> {
    return this.auth.me(user);
  }
}
