import {
  Body,
  Controller,
  Delete,
  Get,
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
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser, type AuthUser } from '../../../platform/common/auth-user';
import { Public } from '../../../platform/common/public.decorator';
import { ThrottledBy } from '../../../platform/common/throttled-by.decorator';
import { FailedSignatureThrottle } from '../../../platform/throttle/failed-signature-throttle';
import { StripeMemberEventsService } from '../stripe-member-events.service';
import { StripeMemberWebhookSignatureException } from '../stripe-members.exceptions';
import { PageQueryDto } from '../../../platform/common/page-query.dto';
import { sessionScope } from '../../../platform/database/business-scope';
import { StripeMembersService } from '../stripe-members.service';
import { StripeMemberRunsService } from '../jobs/stripe-member-runs.service';
import {
  StripeBillChangesDto,
  StripeMembersRemovalDto,
  StripeMembersStatusDto,
  StripeMembersWebhookReceiptDto,
  StripeNextChargeDto,
} from './dto/stripe-members-replies.dto';
import {
  StripeMembersDiscountsDto,
  StripeMembersKeyDto,
  StripeMembersSyncDto,
  StripeMembersWebhookDto,
} from './dto/stripe-members-requests.dto';

/**
 * The Stripe member-billing wizard of the signed-in owner's business (issue 32,
 * docs/stripe.md#member-billing): connect, discounts, import, preview, confirmed sync, remove —
 * Mindbody's shape. Every route is the owner's (integrations are) and answers for the session's
 * business only. 401 without a session.
 */
@ApiTags('stripe-members')
@ApiCookieAuth('grove_access')
@Controller('stripe-members')
export class StripeMembersController {
  constructor(
    private readonly stripeMembers: StripeMembersService,
    private readonly runs: StripeMemberRunsService,
    private readonly accountEvents: StripeMemberEventsService,
    private readonly signatureFailures: FailedSignatureThrottle,
  ) {}

  /** → 200 StripeMembersStatus (`connected: false` before any setup; never the key). */
  @Get()
  @ApiOperation({ summary: 'Whether a Stripe account is connected, the discounts, the last runs' })
  @ApiOkResponse({ type: StripeMembersStatusDto })
  status(@CurrentUser() user: AuthUser): Promise<StripeMembersStatusDto> {
    return this.stripeMembers.status(sessionScope(user));
  }

  /**
   * Body `{ apiKey }`, a restricted key (`rk_live_…`/`rk_test_…`). → 200 StripeMembersStatus,
   * connected; 400 `MESSAGES.stripeInvalidKey` (not a restricted key), `stripeKeyRefused`
   * (Stripe's 401) or `stripeKeyMissingPermissions` (Stripe's 403); 409
   * `MESSAGES.stripeAccountClaimed` (another business imported this account's subscriptions);
   * 502 `MESSAGES.stripeUnavailable`; 429 past THROTTLE_MINDBODY_CREDENTIALS_LIMIT checks a
   * business, or a client address, in THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS (the
   * integrations' credential-check throttlers; each check is a call to the gym's Stripe). Nothing
   * is stored on a refusal.
   */
  @Put('credentials')
  @ThrottledBy(['mindbody-business', 'mindbody-address'])
  @ApiOperation({ summary: "Check the gym's Stripe restricted key and store it encrypted" })
  @ApiOkResponse({ type: StripeMembersStatusDto })
  connect(
    @CurrentUser() user: AuthUser,
    @Body() body: StripeMembersKeyDto,
  ): Promise<StripeMembersStatusDto> {
    return this.stripeMembers.connect(sessionScope(user), body.apiKey);
  }

  /**
   * Body `{ signingSecret }`, the `whsec_…` secret of the endpoint the owner added in their Stripe
   * Dashboard for the status's `webhookUrl` (events `invoice.paid`, `customer.subscription.deleted`).
   * Stored sealed; a new one replaces the old. → 200 StripeMembersStatus (`webhookConfigured`); 400
   * `MESSAGES.stripeInvalidWebhookSecret`; 409 `MESSAGES.stripeNotConnected`.
   */
  @Put('webhook')
  @ApiOperation({ summary: "Store the signing secret of the gym's Stripe webhook endpoint" })
  @ApiOkResponse({ type: StripeMembersStatusDto })
  saveWebhook(
    @CurrentUser() user: AuthUser,
    @Body() body: StripeMembersWebhookDto,
  ): Promise<StripeMembersStatusDto> {
    return this.stripeMembers.saveWebhook(sessionScope(user), body.signingSecret);
  }

  /**
   * Deliveries from the gym's own Stripe account (public; https://docs.stripe.com/webhooks). The
   * token names the business; the raw body is verified against `Stripe-Signature` with that
   * business's signing secret before anything else. → 200 `{ received: true }` (also for a replay
   * or an event type Grove does not act on); 400 'Webhook signature verification failed' (unknown
   * token, no secret saved, bad signature); 429 after THROTTLE_WEBHOOK_SIGNATURE_LIMIT failed
   * deliveries from one client in 60 s.
   */
  @Public()
  @Post('webhooks/:token')
  @HttpCode(HttpStatus.OK)
  @ApiBody({ schema: { type: 'object', description: 'A Stripe Event (signed)' } })
  @ApiOkResponse({ type: StripeMembersWebhookReceiptDto })
  @ApiOperation({ summary: "Receive a signed event from a gym's own Stripe account" })
  async webhook(
    @Param('token') token: string,
    @Req() request: Request & { rawBody?: Buffer },
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<StripeMembersWebhookReceiptDto> {
    try {
      await this.accountEvents.receive(token, request.rawBody, signature);
    } catch (error) {
      if (error instanceof StripeMemberWebhookSignatureException)
        await this.signatureFailures.countFailure(request as unknown as Record<string, unknown>);
      throw error;
    }
    return { received: true };
  }

  /**
   * Body `{ discountOnReferralCents, discountForRefereeCents? }`, integer cents. → 200
   * StripeMembersStatus; 400 'Please provide valid values.'; 409 `MESSAGES.stripeNotConnected`.
   */
  @Put('discounts')
  @ApiOperation({ summary: 'Save the referral discounts the sync writes' })
  @ApiOkResponse({ type: StripeMembersStatusDto })
  saveDiscounts(
    @CurrentUser() user: AuthUser,
    @Body() body: StripeMembersDiscountsDto,
  ): Promise<StripeMembersStatusDto> {
    return this.stripeMembers.saveDiscounts(
      sessionScope(user),
      body.discountOnReferralCents,
      body.discountForRefereeCents ?? 0,
    );
  }

  /**
   * 'Import members': starts the import of the customers with active subscriptions as members
   * (matched by email key; price = the subscription items' amounts, cents) as a background job
   * with progress (`StripeMemberRunsService`); a second request while a run is under way starts
   * nothing. → 202 StripeMembersStatus, its `run` running (poll `GET /api/stripe-members`: `run`
   * done with listed / membersWritten / ended, or failed with its message); 409 not connected.
   */
  @Post('import')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: "Start importing the gym's customers with active subscriptions" })
  @ApiAcceptedResponse({ type: StripeMembersStatusDto })
  import(@CurrentUser() user: AuthUser): Promise<StripeMembersStatusDto> {
    return this.runs.startImport(sessionScope(user));
  }

  /**
   * `?page=&pageSize=` (default 1 and 100) → 200 StripeBillChanges: the bills a sync would change
   * (member, currency, current and new cents), by name, with the count, the total difference and
   * the `fingerprint` the sync confirms. Stored data only: no Stripe call. 400 page/pageSize; 409
   * not connected or no discounts saved.
   */
  @Get('sync/preview')
  @ApiOperation({ summary: 'The Stripe bills a sync would change (nothing is written)' })
  @ApiOkResponse({ type: StripeBillChangesDto })
  syncPreview(
    @CurrentUser() user: AuthUser,
    @Query() query: PageQueryDto,
  ): Promise<StripeBillChangesDto> {
    return this.stripeMembers.syncPreview(sessionScope(user), query.page, query.pageSize);
  }

  /**
   * Body `{ confirm, automatic? }`, the preview's fingerprint and whether bills the gym's webhooks
   * change later are written without another review under these discounts (default false). Starts
   * the sync of exactly the previewed bills as a background job with progress (a second request
   * while a run is under way starts nothing). → 202 StripeMembersStatus, its `run` running (done:
   * `billsWritten`; failed: its message, e.g. Stripe unavailable); 400
   * `MESSAGES.mindbodySyncConfirmRequired`, 'automatic must be true or false'; 409
   * `MESSAGES.mindbodySyncPreviewStale` (the changes are no longer those reviewed: nothing
   * started), not connected or no discounts.
   */
  @Post('sync')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Start writing the reviewed discounts into the subscriptions' })
  @ApiAcceptedResponse({ type: StripeMembersStatusDto })
  sync(
    @CurrentUser() user: AuthUser,
    @Body() body: StripeMembersSyncDto,
  ): Promise<StripeMembersStatusDto> {
    return this.runs.startSync(sessionScope(user), body.confirm, body.automatic ?? false);
  }

  /**
   * What Stripe will charge the member next (the subscription's upcoming invoice): → 200
   * StripeNextCharge `{amountCents, currency, at}`; 404 `MESSAGES.stripeNoSubscription` (not this
   * business's member, or no running subscription); 409 not connected; 502 Stripe unavailable.
   */
  @Get('members/:id/next-charge')
  @ApiOperation({ summary: 'What Stripe will charge a member next, from the upcoming invoice' })
  @ApiOkResponse({ type: StripeNextChargeDto })
  nextCharge(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<StripeNextChargeDto> {
    return this.stripeMembers.nextCharge(sessionScope(user), id);
  }

  /**
   * Disconnects: removes every discount Grove added and reports the count; the key, imported
   * subscriptions and coupons are forgotten, members stay. → 200 StripeMembersRemoval (also when
   * nothing was connected: 0); 502 Stripe unavailable (the connection kept).
   */
  @Delete()
  @ApiOperation({ summary: "Remove Grove's discounts from the gym's subscriptions and disconnect" })
  @ApiOkResponse({ type: StripeMembersRemovalDto })
  remove(@CurrentUser() user: AuthUser): Promise<StripeMembersRemovalDto> {
    return this.stripeMembers.remove(sessionScope(user));
  }
}
