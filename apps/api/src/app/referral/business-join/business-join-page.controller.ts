import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Ip,
  Param,
  Post,
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
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { validateBusinessJoin } from '@grove/contracts';
import { Public } from '../../platform/common/public.decorator';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { NotCrossSiteGuard } from '../../platform/web/inline-page-http';
import { answerPublicFormPost } from '../../platform/web/public-form-page';
import { JoinPageAssetsService } from '../referrals/join-page/join-page-assets.service';
import { BusinessJoinDto } from './dto/business-join.dto';
import { BusinessJoinPageFilter } from './business-join-page.filter';
import { BusinessJoinService } from './business-join.service';
import { renderBusinessJoinPage, type BusinessJoinPageState } from './business-join.view';

/**
 * The business's own join page, rendered by the API (issue 33 item 4,
 * docs/product.md#business-join, docs/decisions/business-join-page.md): `GET /join/:code` answers
 * the whole page (business name, the form with "Who referred you?") and the form's plain `POST
 * /join/:code` (no JavaScript) the success or failure page. Public: the business comes only from
 * the code; no reply names or confirms a member. Every reply is HTML with the join page's CSP
 * (`JoinPageAssetsService.headers`), `Cache-Control: no-store`, `Referrer-Policy: same-origin`;
 * errors are pages too (`BusinessJoinPageFilter`). Outside the `/api` prefix (setup-app.ts).
 */
@ApiTags('referrals')
@ApiProduces('text/html')
@Public()
@Controller('join')
@UseFilters(BusinessJoinPageFilter)
@UseGuards(NotCrossSiteGuard)
export class BusinessJoinPageController {
  constructor(
    private readonly joins: BusinessJoinService,
    private readonly assets: JoinPageAssetsService,
  ) {}

  /** → 200 the page with the form; 404 the failure page (no business has that code). */
  @Get(':code')
  @ApiOperation({ summary: "The business's join page as HTML (outside /api)" })
  @ApiOkResponse({ content: { 'text/html': { schema: { type: 'string' } } } })
  async page(
    @Param('code') code: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    return this.send(response, { kind: 'form', code, ...(await this.joins.page(code)) });
  }

  /**
   * The form's POST, body `name=…&email=…&referredBy=…&website=…` (urlencoded; `website` is the
   * honeypot). Throttled with the referral join ('referral', THROTTLE_REFERRAL_LIMIT per client
   * per minute, counted together). → 200 'Successfully registered!', the same page for a
   * stranger, a member of the business and a filled honeypot, whatever "Who referred you?" says;
   * 400 the form again with the typed values and the messages under the fields ('Not a valid
   * name', 'Not a valid email address', 'Write who referred you in plain text, at most 100
   * characters'), nothing written; 403 from another site; 404 / 429 the failure page.
   */
  @Post(':code')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: "The business's join form: answered by a page (outside /api)" })
  @ApiOkResponse({ content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: BusinessJoinDto })
  @ThrottledBy('referral')
  async join(
    @Param('code') code: string,
    @Body() body: Record<string, unknown> | undefined,
    @Res({ passthrough: true }) response: Response,
    @Ip() clientAddress: string,
  ): Promise<string> {
    return answerPublicFormPost(response, body, {
      dto: BusinessJoinDto,
      fields: ['name', 'email', 'referredBy', 'website'],
      validate: validateBusinessJoin,
      find: () => this.joins.page(code),
      submit: (dto) => this.joins.join(code, dto, clientAddress),
      render: (reply) =>
        this.send(
          response,
          reply.kind === 'sent'
            ? { kind: 'success', ...reply.found }
            : { kind: 'form', code, ...reply.found, values: reply.dto, errors: reply.errors },
        ),
    });
  }

  private send(response: Response, state: BusinessJoinPageState): string {
    return renderBusinessJoinPage(state, this.assets.headers(response));
  }
}
