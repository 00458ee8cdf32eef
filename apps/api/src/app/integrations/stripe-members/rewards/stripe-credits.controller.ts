import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../../platform/common/auth-user';
import { sessionScope } from '../../../platform/database/business-scope';
import {
  StripeCreditsConfirmDto,
  StripeCreditsDto,
  StripeCreditsResultDto,
} from './dto/stripe-credits.dto';
import { StripeCredits } from './stripe-credits';

/**
 * Referrers' one-off credits written to the gym's Stripe (issue 33 item 2,
 * docs/stripe.md#member-billing): previewed, then confirmed (issue 25's rule). The owner's
 * routes (integrations are), for the session's business only. 401 without a session.
 */
@ApiTags('stripe-members')
@ApiCookieAuth('grove_access')
@Controller('stripe-members/credits')
export class StripeCreditsController {
  constructor(private readonly credits: StripeCredits) {}

  /**
   * → 200 StripeCredits: the owed credits Stripe would take (no Stripe call), their total (cents)
   * and fingerprint; 409 `MESSAGES.stripeNotConnected`.
   */
  @Get('preview')
  @ApiOperation({ summary: "Preview the referrers' one-off credits to write to Stripe" })
  @ApiOkResponse({ type: StripeCreditsDto })
  preview(@CurrentUser() user: AuthUser): Promise<StripeCreditsDto> {
    return this.credits.preview(sessionScope(user));
  }

  /**
   * Body `{ confirm }` (the preview's fingerprint). → 200 `{ credited }`: one customer-balance
   * credit per owed reward, each once (`Idempotency-Key: grove-credit-<reward id>`); 400
   * `MESSAGES.mindbodySyncConfirmRequired` (no or a malformed fingerprint), or Stripe's missing
   * permission; 409 `MESSAGES.stripeNotConnected`, or `MESSAGES.mindbodySyncPreviewStale` when
   * the credits are no longer the preview's (nothing written); 502 Stripe unavailable.
   */
  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: "Write the previewed one-off credits to the referrers' Stripe balance" })
  @ApiOkResponse({ type: StripeCreditsResultDto })
  confirm(
    @CurrentUser() user: AuthUser,
    @Body() body: StripeCreditsConfirmDto,
  ): Promise<StripeCreditsResultDto> {
    return this.credits.confirm(sessionScope(user), body.confirm);
  }
}
