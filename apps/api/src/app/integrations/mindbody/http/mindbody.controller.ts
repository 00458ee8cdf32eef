import {
  Body,
  Controller,
  Delete,
  Get,
  Head,
  Headers,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser, type AuthUser } from '../../../platform/common/auth-user';
import { Public } from '../../../platform/common/public.decorator';
import { ThrottledBy } from '../../../platform/common/throttled-by.decorator';
import { MindbodySiteActivationDto } from './dto/mindbody-activation.dto';
import { MindbodyBillChangesDto } from './dto/mindbody-bill-changes.dto';
import { MindbodyCredentialsDto } from './dto/mindbody-credentials.dto';
import { MindbodyDiscountsDto } from './dto/mindbody-discounts.dto';
import {
  MindbodyReferralTypeDto,
  MindbodyReferralTypesDto,
} from './dto/mindbody-referral-type.dto';
import { MindbodySiteQueryDto } from './dto/mindbody-site.dto';
import { MindbodyStatusDto } from './dto/mindbody-status.dto';
import { MindbodySyncDto } from './dto/mindbody-sync.dto';
import { MindbodyWebhookDeliveryDto } from './dto/mindbody-webhook.dto';
import { PageQueryDto } from '../../../platform/common/page-query.dto';
import { sessionScope } from '../../../platform/database/business-scope';
import { MindbodyService } from '../mindbody.service';
import { MindbodyAddClient } from '../jobs/mindbody-add-client';
import { MindbodyWebhookSignatureException } from '../mindbody.exceptions';
import { FailedSignatureThrottle } from '../../../platform/throttle/failed-signature-throttle';

/**
 * The Mindbody setup wizard of the signed-in owner's business (docs/product.md#mindbody-setup Mindbody setup, docs/product.md#mindbody-stages stage
 * table, docs/product.md#calls /mindbody/* calls). Every reply is a `MindbodyStatus` (never credentials). 401
 * without a session.
 */
@ApiTags('mindbody')
@ApiCookieAuth('grove_access')
@Controller('mindbody')
export class MindbodyController {
  constructor(
    private readonly mindbody: MindbodyService,
    private readonly signatureFailures: FailedSignatureThrottle,
    private readonly addClient: MindbodyAddClient,
  ) {}

  /** → 200 MindbodyStatus (stage 1 before any setup). Polled every 10 s while a process runs (docs/product.md#mindbody-stages). */
  @Get()
  @ApiOperation({ summary: 'Stage, discounts (cents), process state, progress, last sync' })
  @ApiOkResponse({ type: MindbodyStatusDto })
  status(@CurrentUser() user: AuthUser): Promise<MindbodyStatusDto> {
    return this.mindbody.status(sessionScope(user));
  }

  /**
   * Stage 1's first step (issue 22): `?siteId=-99` → 200 `MindbodySiteActivation` `{siteId,
   * activated, activationCode, activationLink}`: whether the site has activated Grove's developer
   * account, else the code and the link its owner opens ('Check again' asks again). 400
   * `MESSAGES.mindbodyInvalidSiteId` (not a site number) or `MESSAGES.mindbodyUnknownSite`; 502
   * 'Something went wrong'. Nothing is stored.
   */
  @Get('activation')
  @ApiOperation({
    summary: "Whether a Mindbody site has activated Grove's access, else its activation link",
  })
  @ApiOkResponse({ type: MindbodySiteActivationDto })
  activation(
    @CurrentUser() user: AuthUser,
    @Query() query: MindbodySiteQueryDto,
  ): Promise<MindbodySiteActivationDto> {
    return this.mindbody.siteActivation(sessionScope(user), query.siteId);
  }

  /**
   * docs/product.md#calls `/mindbody/auth`. Body `{ username, password, siteId }` (all required).
   * → 200 MindbodyStatus at stage 2; 400 'Invalid credentials provided' (stage unchanged), or
   * `MESSAGES.mindbodySiteNotActivated` when the site has not activated Grove yet; 409
   * `MESSAGES.mindbodySiteClaimed` when another business holds the site (issue 31; its owners are
   * emailed, nothing is stored); 502 'Something went wrong' when Mindbody cannot be reached; 429 'Too many attempts. Try again
   * in N minutes.' past THROTTLE_MINDBODY_CREDENTIALS_LIMIT checks per business or per client
   * address in THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS (issue 11: Grove's API key must not
   * let anyone try staff passwords without limit), counted across API instances.
   */
  @Post('credentials')
  @ThrottledBy(['mindbody-business', 'mindbody-address'])
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Check Mindbody staff credentials (issues a staff token) and store them encrypted',
  })
  @ApiOkResponse({ type: MindbodyStatusDto, description: 'Stage 2' })
  connect(
    @CurrentUser() user: AuthUser,
    @Body() body: MindbodyCredentialsDto,
  ): Promise<MindbodyStatusDto> {
    return this.mindbody.connect(sessionScope(user), body);
  }

  /** docs/product.md#calls `/mindbody/importClients`. → 202 MindbodyStatus with processState 'running'; 409 at stage 1. */
  @Post('import')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    summary: 'Queue the import of every Mindbody client (one at a time per business)',
  })
  @ApiAcceptedResponse({ type: MindbodyStatusDto, description: "processState 'running'" })
  startImport(@CurrentUser() user: AuthUser): Promise<MindbodyStatusDto> {
    return this.mindbody.startImport(sessionScope(user));
  }

  /**
   * docs/product.md#calls `/mindbody/saveDiscounts`. Body `{ discountOnReferralCents,
   * discountForRefereeCents? }`, integer cents. → 200 MindbodyStatus at stage 4; 400 'Please provide valid values.'; 409 below stage 3.
   */
  @Put('discounts')
  @ApiOperation({
    summary: 'Save the referral discounts (stage 3 → 4) and subscribe to Mindbody webhooks',
  })
  @ApiOkResponse({ type: MindbodyStatusDto, description: 'Stage 4' })
  saveDiscounts(
    @CurrentUser() user: AuthUser,
    @Body() body: MindbodyDiscountsDto,
  ): Promise<MindbodyStatusDto> {
    return this.mindbody.saveDiscounts(sessionScope(user), body);
  }

  /**
   * The site's referral types (Mindbody `GET /client/clientreferraltypes`) and the one picked for
   * the friends Grove adds as Mindbody clients (issue 33 item 4). → 200 `MindbodyReferralTypes`;
   * 409 `MESSAGES.mindbodyAddNotConnected` below stage 2; 502 'Something went wrong' when
   * Mindbody fails.
   */
  @Get('referral-types')
  @ApiOperation({ summary: "The Mindbody site's referral types and the one Grove sends" })
  @ApiOkResponse({ type: MindbodyReferralTypesDto })
  referralTypes(@CurrentUser() user: AuthUser): Promise<MindbodyReferralTypesDto> {
    return this.addClient.referralTypes(sessionScope(user));
  }

  /**
   * Body `{ referralType: string | null }`: the referral type Grove sends as `ReferredBy` when it
   * adds an approved friend to Mindbody (issue 33 item 4), checked against the site's list. → 200
   * `MindbodyReferralTypes`; 400 `MESSAGES.mindbodyReferralTypeUnknown` (nothing saved); 409
   * below stage 2; 502 when Mindbody fails.
   */
  @Put('referral-type')
  @ApiOperation({ summary: 'Pick the referral type Grove sends when it adds a friend to Mindbody' })
  @ApiOkResponse({ type: MindbodyReferralTypesDto })
  saveReferralType(
    @CurrentUser() user: AuthUser,
    @Body() body: MindbodyReferralTypeDto,
  ): Promise<MindbodyReferralTypesDto> {
    return this.addClient.saveReferralType(sessionScope(user), body.referralType);
  }

  /**
   * 'Try again' for a member whose adding to Mindbody failed (issue 33 item 4, its message on the
   * member's row): queues the job again. → 204 (the row then says 'pending'); 404 unknown member or another business's; 409
   * `MESSAGES.mindbodyAddNotFailed` when it did not fail, `MESSAGES.mindbodyAddNotConnected` when
   * Mindbody is not connected.
   */
  @Post('clients/:memberId/retry')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Try again to add a member to Mindbody' })
  @ApiNoContentResponse()
  retryClient(@CurrentUser() user: AuthUser, @Param('memberId') memberId: string): Promise<void> {
    return this.addClient.retry(sessionScope(user), memberId);
  }

  /**
   * The sync's preview (issue 25): `?page=&pageSize=` (default 1 and 100) → 200
   * `MindbodyBillChanges`: the managed members whose Mindbody autopay a sync would change (name,
   * current and new cents, difference), sorted by name, with the count, the total monthly
   * difference (cents) and the `fingerprint` the sync confirms. From stored data: no Mindbody
   * call, nothing written. 400 `MESSAGES.pageInvalid` / `pageSizeInvalid`; 409 below stage 4.
   */
  @Get('sync/preview')
  @ApiOperation({ summary: 'The Mindbody bills a sync would change (nothing is written)' })
  @ApiOkResponse({ type: MindbodyBillChangesDto })
  syncPreview(
    @CurrentUser() user: AuthUser,
    @Query() query: PageQueryDto,
  ): Promise<MindbodyBillChangesDto> {
    return this.mindbody.syncPreview(sessionScope(user), query.page, query.pageSize);
  }

  /**
   * docs/product.md#calls `/mindbody/sync`, confirmed (issue 25): body `{ confirm }`, the
   * `fingerprint` of the preview the owner saw. → 202 MindbodyStatus with processState 'running';
   * 400 `MESSAGES.mindbodySyncConfirmRequired` without one; 409 below stage 4, or
   * `MESSAGES.mindbodySyncPreviewStale` when the bills to change are no longer those previewed.
   */
  @Post('sync')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    summary: 'Queue a confirmed sync: changed clients in, discounted autopay amounts out',
  })
  @ApiAcceptedResponse({ type: MindbodyStatusDto, description: "processState 'running'" })
  startSync(
    @CurrentUser() user: AuthUser,
    @Body() body: MindbodySyncDto,
  ): Promise<MindbodyStatusDto> {
    return this.mindbody.startSync(sessionScope(user), body.confirm);
  }

  /**
   * What 'Remove integration' would do to bills (issue 25): `?page=&pageSize=` → 200
   * `MindbodyBillChanges` of the members whose autopay Grove overrode, from what Mindbody bills now
   * back to their own amount, sorted by name, with the count and monthly difference (cents).
   * Stored data only; empty at stage 1. 400 `MESSAGES.pageInvalid` / `pageSizeInvalid`.
   */
  @Get('removal/preview')
  @ApiOperation({ summary: "The Mindbody bills 'Remove integration' would put back" })
  @ApiOkResponse({ type: MindbodyBillChangesDto })
  removalPreview(
    @CurrentUser() user: AuthUser,
    @Query() query: PageQueryDto,
  ): Promise<MindbodyBillChangesDto> {
    return this.mindbody.removalPreview(sessionScope(user), query.page, query.pageSize);
  }

  /** docs/product.md#calls `/mindbody/removeIntegration`. → 200 MindbodyStatus at stage 1; 502 'Something went wrong'. */
  @Delete()
  @ApiOperation({
    summary: 'Remove the integration: stage 1, credentials and discounts cleared, members kept',
  })
  @ApiOkResponse({ type: MindbodyStatusDto, description: 'Stage 1, with `removal`' })
  remove(@CurrentUser() user: AuthUser): Promise<MindbodyStatusDto> {
    return this.mindbody.remove(sessionScope(user));
  }

  /**
   * Mindbody's check of the webhook URL (public): before it activates a subscription, Mindbody
   * sends a HEAD request to the URL and activates it only on a 2xx. → 204, no body.
   */
  @Public()
  @Head('webhooks')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Answer Mindbody's HEAD check of the webhook URL" })
  @ApiNoContentResponse({ description: 'The URL answers: Mindbody may activate the subscription' })
  webhookCheck(): void {
    // Nothing to do: the route answering is the check.
  }

  /**
   * Mindbody webhook deliveries (public; Mindbody Webhooks API). The raw body is verified against
   * `X-Mindbody-Signature` before anything else. → 204 (also for a duplicate messageId); 401 bad
   * signature; 429 after THROTTLE_WEBHOOK_SIGNATURE_LIMIT bad signatures from one client in 60 s.
   */
  @Public()
  @Post('webhooks')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Receive a signed Mindbody webhook delivery' })
  @ApiBody({ type: MindbodyWebhookDeliveryDto })
  @ApiNoContentResponse({ description: 'Verified and handled (or a duplicate `messageId`)' })
  async webhook(
    @Req() request: Request & { rawBody?: Buffer },
    @Headers('x-mindbody-signature') signature: string | undefined,
  ): Promise<void> {
    try {
      await this.mindbody.receiveWebhook(request.rawBody, signature);
    } catch (error) {
      if (error instanceof MindbodyWebhookSignatureException)
        await this.signatureFailures.countFailure(request as unknown as Record<string, unknown>);
      throw error;
    }
  }
}
