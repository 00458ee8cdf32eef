import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { WelcomeOfferGrantDto, WelcomeOfferGrantsDto } from './dto/welcome-offer-grant.dto';
import { WelcomeOfferDto } from './dto/welcome-offer.dto';
import { WelcomeOfferService } from './welcome-offer.service';

/**
 * The friend's welcome offer (Account Settings → 'Welcome offer'; docs/product.md#welcome-offer).
 * 401 without a session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/welcome-offer')
export class WelcomeOfferController {
  constructor(private readonly offers: WelcomeOfferService) {}

  /** → 200 `WelcomeOffer`: the business's offer (`kind: 'none'` until the owner sets one). */
  @Get()
  @ApiOperation({ summary: "The referred friend's welcome offer" })
  @ApiOkResponse({ type: WelcomeOfferDto })
  get(@CurrentUser() user: AuthUser): Promise<WelcomeOfferDto> {
    return this.offers.get(sessionScope(user));
  }

  /**
   * Body `WelcomeOffer` (`kind` and that kind's fields: `amountCents` integer cents, `percent`,
   * `months`, `text`). → 200 the saved offer (other kinds' fields null, `text` trimmed); 400 with
   * the rule's message (`WELCOME_OFFER_MESSAGES`, `fieldErrors`), nothing saved.
   */
  @Put()
  @ApiOperation({ summary: "Save the referred friend's welcome offer" })
  @ApiOkResponse({ type: WelcomeOfferDto })
  put(@CurrentUser() user: AuthUser, @Body() body: WelcomeOfferDto): Promise<WelcomeOfferDto> {
    return this.offers.save(sessionScope(user), body);
  }
}

/**
 * Welcome offers granted to approved friends, for the owner to honour by hand where the gym's
 * billing does not apply them (docs/product.md#welcome-offer 'Welcome offers to honour'). 401
 * without a session; only the session's business (another business's grant is 404).
 */
@ApiTags('prospects')
@ApiCookieAuth('grove_access')
@Controller('welcome-offers')
export class WelcomeOfferGrantsController {
  constructor(private readonly offers: WelcomeOfferService) {}

  /**
   * → 200 `{ items: WelcomeOfferGrant[], appliesInStripe }`: those to honour first (oldest first),
   * then honoured (by hand, or applied in Stripe); `appliesInStripe` whether an approval now writes
   * the offer to the gym's Stripe.
   */
  @Get()
  @ApiOperation({ summary: 'Welcome offers granted to approved friends' })
  @ApiOkResponse({ type: WelcomeOfferGrantsDto })
  async list(@CurrentUser() user: AuthUser): Promise<WelcomeOfferGrantsDto> {
    const scope = sessionScope(user);
    const [items, appliesInStripe] = await Promise.all([
      this.offers.grants(scope),
      this.offers.appliesInStripe(scope),
    ]);
    return { items, appliesInStripe };
  }

  /**
   * Marks a granted offer honoured (idempotent). → 200 the grant with `honouredAt`; 404 'This
   * welcome offer was not found' (unknown or another business's).
   */
  @Post(':id/honoured')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Mark a welcome offer honoured' })
  @ApiOkResponse({ type: WelcomeOfferGrantDto })
  markHonoured(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<WelcomeOfferGrantDto> {
    return this.offers.markHonoured(sessionScope(user), id);
  }
}
