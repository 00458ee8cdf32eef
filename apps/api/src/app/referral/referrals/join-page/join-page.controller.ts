import {
  Body,
  Controller,
  Get,
  Ip,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
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
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { JOIN_VIAS, joinChannel, validateJoinReferral } from '@grove/contracts';
import { Public } from '../../../platform/common/public.decorator';
import { ThrottledBy } from '../../../platform/common/throttled-by.decorator';
import { JoinReferralDto } from '../dto/join-referral.dto';
import { ReferralsService } from '../referrals.service';
import { NotCrossSiteGuard } from '../../../platform/web/inline-page-http';
import { answerPublicFormPost } from '../../../platform/web/public-form-page';
import { JoinPageAssetsService } from './join-page-assets.service';
import { JoinPageExceptionFilter } from './join-page.filter';
import { renderJoinPage, type JoinPageState } from './join-page.view';

/**
 * The referral join page, rendered by the API (docs/product.md#referral-join,
 * docs/architecture.md#join-page): `GET /referral/:code` answers the whole page (business name,
 * 'X invited you to join', the form) in its first response, and the form's plain `POST
 * /referral/:code` (no JavaScript needed) answers the success or failure page. Public: the
 * business and the referrer come only from the code. Every reply is HTML with the page's own CSP
 * (`JoinPageAssetsService.headers`), `Cache-Control: no-store` and
 * `Referrer-Policy: same-origin`; errors are pages too
 * (`JoinPageExceptionFilter`). Outside the `/api` prefix (setup-app.ts).
 */
@ApiTags('referrals')
@ApiProduces('text/html')
@Public()
@Controller('referral')
@UseFilters(JoinPageExceptionFilter)
@UseGuards(NotCrossSiteGuard)
export class JoinPageController {
  constructor(
    private readonly referrals: ReferralsService,
    private readonly assets: JoinPageAssetsService,
  ) {}

  /**
   * → 200 the page with the form for a live code, counting the visit once per client per link
   * per UTC day (`ReferralsService.info`, docs/architecture.md#lifecycle-facts); 404 the failure page (unknown, revoked or expired code:
   * 'Something went wrong! …', no form, nothing about members). `?via=` names the channel that
   * brought the visit (issue 33, docs/product.md#referral-join: `JOIN_VIAS`; anything else,
   * absent or repeated → `direct`, never an error): the visit is counted under it and the form
   * carries it (hidden `via`) to the join. The raw value is never written into the page.
   */
  @Get(':code')
  @ApiOperation({ summary: 'The join page as HTML (outside /api)' })
  @ApiQuery({
    name: 'via',
    required: false,
    enum: JOIN_VIAS,
    description: 'The channel the link was shared through; anything else counts as direct',
  })
  @ApiOkResponse({ content: { 'text/html': { schema: { type: 'string' } } } })
  async page(
    @Param('code') code: string,
    @Query('via') via: unknown,
    @Ip() clientAddress: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const channel = joinChannel(via);
    // Counts the visit (once per visitor, link and UTC day: join_page_visits, under its channel)
    // in the statement that reads the link.
    const info = await this.referrals.info(code, clientAddress, channel);
    return this.send(response, { kind: 'form', code, ...info, via: channel });
  }

  /**
   * The form's POST, body `name=…&email=…&website=…&via=…` (urlencoded; `website` is the
   * honeypot, `via` the channel of the visit: anything not in `JOIN_VIAS` → `direct`).
   * Same rules, messages, throttle ('referral', THROTTLE_REFERRAL_LIMIT per client per minute) and
   * write as `POST /api/referrals/:code/join` (`ReferralsService.join`: one statement decides and
   * writes). → 200 the success page 'Successfully registered!', byte-identical for a stranger, a
   * member of the business, the referrer and a filled honeypot; 400 the form again with the
   * typed values and 'Not a valid name' / 'Not a valid email address' under the fields; 403 when
   * sent from another site (Origin, by the global OriginGuard, or `Sec-Fetch-Site: cross-site`);
   * 404 / 429 the failure page.
   */
  @Post(':code')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'The join form without JavaScript: answered by a page (outside /api)' })
  @ApiOkResponse({ content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: JoinReferralDto })
  @ThrottledBy('referral')
  async join(
    @Param('code') code: string,
    @Body() body: Record<string, unknown> | undefined,
    @Res({ passthrough: true }) response: Response,
    @Ip() clientAddress: string,
  ): Promise<string> {
    // The JSON join's rules and messages (`JoinReferralDto`'s `@ValidatedBy`); `via` becomes its
    // channel by the DTO's transform. A POST is not a new visit of the page.
    return answerPublicFormPost(response, body, {
      dto: JoinReferralDto,
      fields: ['name', 'email', 'website', 'via'],
      validate: validateJoinReferral,
      find: () => this.referrals.infoWithoutVisit(code),
      submit: (dto) => this.referrals.join(code, dto, clientAddress),
      render: (reply) =>
        this.send(
          response,
          reply.kind === 'sent'
            ? { kind: 'success', code, ...reply.found }
            : {
                kind: 'form',
                code,
                ...reply.found,
                values: reply.dto,
                errors: reply.errors,
                via: reply.dto.via,
              },
        ),
    });
  }

  private send(response: Response, state: JoinPageState): string {
    return renderJoinPage(state, this.assets.headers(response));
  }
}
