import { Controller, Get, Headers, HttpCode, HttpStatus, Post, Req } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { Public } from '../../platform/common/public.decorator';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { sessionScope } from '../../platform/database/business-scope';
import { BillingService } from './billing.service';
import {
  BillingRedirectDto,
  BillingSummaryDto,
  StripeWebhookReceiptDto,
} from './dto/billing-summary.dto';
import { StripeEventsService } from './stripe-events.service';

/**
 * Grove's own bill (docs/product.md#billing, docs/stripe.md#grove-billing): Account Settings →
 * Billing's routes (signed in, the session's business only) and Stripe's webhook (public, signed).
 */
@ApiTags('billing')
@Controller('billing')
export class BillingController {
  constructor(
    private readonly billing: BillingService,
    private readonly events: StripeEventsService,
  ) {}

  /** → 200 BillingSummary (state, free count, grace end, next charge, invoices); 401. */
  @Get()
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: BillingSummaryDto })
  @ApiOperation({ summary: "Where the business stands with Grove's own bill" })
  summary(@CurrentUser() user: AuthUser): Promise<BillingSummaryDto> {
    return this.billing.summary(sessionScope(user));
  }

  /**
   * 'Add a card' → 200 `{ url }` of a Stripe Checkout Session (subscription mode); 401; 409
   * 'Your Grove subscription is already active'; 429 after THROTTLE_BILLING_LIMIT sessions of the
   * business in an hour (with the portal's); 503 'Billing is not available right now…'.
   */
  @Post('checkout')
  @ThrottledBy('billing')
  @HttpCode(HttpStatus.OK)
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: BillingRedirectDto })
  @ApiOperation({ summary: "Start Stripe Checkout for Grove's plan" })
  checkout(@CurrentUser() user: AuthUser): Promise<BillingRedirectDto> {
    return this.billing.checkout(sessionScope(user));
  }

  /**
   * 'Manage billing' → 200 `{ url }` of a Stripe Customer Portal session; 401; 409 'Add a card
   * first…' before Checkout; 429 as for checkout; 503.
   */
  @Post('portal')
  @ThrottledBy('billing')
  @HttpCode(HttpStatus.OK)
  @ApiCookieAuth('grove_access')
  @ApiOkResponse({ type: BillingRedirectDto })
  @ApiOperation({ summary: "Open Stripe's Customer Portal for Grove's plan" })
  portal(@CurrentUser() user: AuthUser): Promise<BillingRedirectDto> {
    return this.billing.portal(sessionScope(user));
  }

  /**
   * Stripe's webhook (public; https://docs.stripe.com/webhooks). The raw body is verified with
   * `Stripe-Signature` first. → 200 `{ received: true }` (also for a duplicate or an event type
   * Grove ignores); 400 'Webhook signature verification failed'; 503 when Stripe is not configured.
   */
  @Public()
  @Post('stripe-webhook')
  @HttpCode(HttpStatus.OK)
  @ApiBody({ schema: { type: 'object', description: 'A Stripe Event (signed)' } })
  @ApiOkResponse({ type: StripeWebhookReceiptDto })
  @ApiOperation({ summary: "Receive a signed Stripe event about Grove's own bill" })
  async webhook(
    @Req() request: Request & { rawBody?: Buffer },
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<StripeWebhookReceiptDto> {
    await this.events.receive(request.rawBody, signature);
    return { received: true };
  }
}
