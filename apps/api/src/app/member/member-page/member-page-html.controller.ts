import {
  Body,
  Catch,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Injectable,
  Ip,
  Post,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { isValidEmail, MESSAGES } from '@grove/contracts';
import { Public } from '../../platform/common/public.decorator';
import { MagicLinkInvalidException } from '../member-auth/member-auth.exceptions';
import { MemberAuthService } from '../member-auth/member-auth.service';
import type { MemberSessionRow } from '../member-auth/member-tokens.repository';
import { InlinePageAssetsService } from '../../platform/web/inline-page-assets.service';
import {
  formText,
  InlinePageExceptionFilter,
  NotCrossSiteGuard,
} from '../../platform/web/inline-page-http';
import { WebAppsService } from '../../platform/web/web-apps.service';
import { MemberPageLandingFormDto, MemberPageLinkFormDto } from './dto/member-page-reply.dto';
import { MemberPageService } from './member-page.service';
import { renderMemberPage, type MemberPageState } from './member-page.view';

/** An HTML document reply (the member page, its errors too). */
const HTML = { 'text/html': { schema: { type: 'string' } } };

/** The member page's inline assets (apps/referral `features/member/page`, built to `member-page/`). */
@Injectable()
export class MemberPageAssetsService extends InlinePageAssetsService {
  constructor(web: WebAppsService) {
    super(web, 'member-page');
  }
}

/**
 * The member page's errors as a page, not JSON: the status the API would answer
 * (`ApiExceptionFilter`: 403 another site, 429 over the new-link throttle, 503 database down),
 * showing its message above the "send me a new link" form.
 */
@Catch()
export class MemberPageExceptionFilter extends InlinePageExceptionFilter {
  constructor(private readonly assets: MemberPageAssetsService) {
    super();
  }

  protected render(message: string, response: Response): string {
    const state: MemberPageState = { kind: 'signed-out', reason: 'failed', message };
    return renderMemberPage(state, this.assets.headers(response));
  }
}

/**
 * The member page `/member`, rendered by the API (docs/product.md#member-page,
 * docs/architecture.md#member-page). Outside the `/api` prefix (setup-app.ts); every reply is
 * HTML with the page's own CSP (hashes of its inline style and script), `Cache-Control:
 * no-store` and `Referrer-Policy: same-origin`. The member cookie (`grove_member`) is also sent
 * to `/member` (`MEMBER_COOKIE_PATHS`); GET is read-only, and the POSTs change nothing for
 * another site: the global OriginGuard, `Sec-Fetch-Site: cross-site` refused, SameSite=Lax.
 */
@ApiTags('member')
@ApiProduces('text/html')
@Public()
@Controller('member')
@UseFilters(MemberPageExceptionFilter)
@UseGuards(NotCrossSiteGuard)
export class MemberPageHtmlController {
  constructor(
    private readonly pages: MemberPageService,
    private readonly auth: MemberAuthService,
    private readonly assets: MemberPageAssetsService,
  ) {}

  /**
   * → 200 the member's page for a live member session (the same `MemberPageService.page` as
   * `GET /api/member/me`, whose opening is recorded for fraud signals the same way); without one,
   * 200 the "send me a link" form, under 'Your session has ended. Ask for a new link below.' when
   * the browser sent a member cookie whose session ended (expired or revoked), else under the
   * sign-in request `MEMBER_PAGE_MESSAGES.signIn` (a first visit; also the page a magic link
   * lands on: its `#token=` is read by the page's script, never sent here).
   */
  @Get()
  @ApiOperation({ summary: 'The member page as HTML (outside /api)' })
  @ApiOkResponse({ description: "The member's page, or the sign-in form", content: HTML })
  async page(
    @Req() request: Request,
    @Ip() clientAddress: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const session = await this.auth.sessionOf(request);
    if (!session)
      return this.send(response, {
        kind: 'signed-out',
        reason: this.auth.hasSessionCookie(request) ? 'ended' : 'first',
      });
    return this.memberPage(session, clientAddress, response);
  }

  /**
   * A magic link's landing, from the page's script: body `{ token }` (JSON, from the URL
   * fragment). Uses the token once and starts a member session (the member cookie), → 200 the
   * member's page; 401 the signed-out page 'This link has expired or has already been used. Ask
   * for a new one below.' (also for a missing or malformed token).
   */
  @Post('landing')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Open the member page with a magic link token (outside /api)' })
  @ApiConsumes('application/json')
  @ApiBody({ type: MemberPageLandingFormDto })
  @ApiOkResponse({ description: "The member's page", content: HTML })
  async landing(
    @Body() body: Record<string, unknown> | undefined,
    @Ip() clientAddress: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const token = formText(body?.['token']);
    let session: MemberSessionRow;
    try {
      if (token.length === 0 || token.length > 200) throw new MagicLinkInvalidException();
      session = await this.pages.signIn(token, response);
    } catch (error) {
      if (!(error instanceof MagicLinkInvalidException)) throw error;
      response.status(HttpStatus.UNAUTHORIZED);
      return this.send(response, { kind: 'signed-out', reason: 'expired' });
    }
    return this.memberPage(session, clientAddress, response);
  }

  /**
   * "Send me a new link" without JavaScript, body `email=…` (urlencoded). Same rule, throttle
   * (THROTTLE_MEMBER_LINK_LIMIT per client, THROTTLE_MEMBER_LINK_EMAIL_LIMIT per address) and
   * emails as `POST /api/member/magic-link`. → 200 'If this email belongs to a member, a new link
   * is on its way. Check your inbox.', byte-identical for a member and a stranger; 400 the form
   * again with 'Not a valid email address'; 429 the form with the throttle's message; 403 from
   * another site.
   */
  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Ask for a new member page link without JavaScript (outside /api)' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: MemberPageLinkFormDto })
  @ApiOkResponse({ description: "The form under 'a new link is on its way'", content: HTML })
  async requestLink(
    @Body() body: Record<string, unknown> | undefined,
    @Ip() clientAddress: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const email = formText(body?.['email']).trim();
    if (!isValidEmail(email)) {
      response.status(HttpStatus.BAD_REQUEST);
      return this.send(response, {
        kind: 'signed-out',
        reason: 'invalid',
        email,
        message: MESSAGES.invalidEmail,
      });
    }
    await this.pages.requestLink(email, clientAddress);
    return this.send(response, { kind: 'signed-out', reason: 'sent' });
  }

  /** Sign out without JavaScript: the session is revoked, both cookies cleared, → 303 `/member`. */
  @Post('sign-out')
  @ApiOperation({ summary: 'Sign out of the member page (outside /api)' })
  @ApiResponse({
    status: HttpStatus.SEE_OTHER,
    description: 'Signed out: redirect to `/member`',
    headers: { Location: { description: '/member', schema: { type: 'string' } } },
    content: HTML,
  })
  async signOut(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.auth.sessionOf(request);
    if (session) await this.pages.signOut(session.businessId, session.sessionId, response);
    response.redirect(HttpStatus.SEE_OTHER, '/member');
  }

  private async memberPage(
    session: MemberSessionRow,
    clientAddress: string,
    response: Response,
  ): Promise<string> {
    const page = await this.pages.open(session, clientAddress);
    return this.send(response, { kind: 'member', page });
  }

  private send(response: Response, state: MemberPageState): string {
    return renderMemberPage(state, this.assets.headers(response));
  }
}
