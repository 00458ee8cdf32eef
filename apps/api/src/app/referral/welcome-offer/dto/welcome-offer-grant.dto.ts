import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  WELCOME_OFFER_STRIPE_STATES,
  type WelcomeOfferGrant,
  type WelcomeOfferInStripe,
} from '@grove/contracts';
import { WelcomeOfferDto } from './welcome-offer.dto';

/** Where a granted offer stands in the gym's Stripe (docs/decisions/welcome-offer.md). */
@ApiSchema({ name: 'WelcomeOfferInStripe' })
export class WelcomeOfferInStripeDto implements WelcomeOfferInStripe {
  @ApiProperty({
    enum: WELCOME_OFFER_STRIPE_STATES,
    description:
      "pending: approved, written once the friend's subscription is found; applied: the coupon is on `subscriptionId`; failed: `note` says why (honour it by hand)",
  })
  state!: WelcomeOfferInStripe['state'];

  @ApiProperty({ type: String, nullable: true, example: 'sub_1Q2w3E' })
  subscriptionId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  note!: string | null;
}

/**
 * A welcome offer granted to a friend at approval (docs/product.md#welcome-offer 'Welcome offers
 * to honour'): the offer and its wording as they were then; `honouredAt` once the owner marked it
 * honoured, else null.
 */
@ApiSchema({ name: 'WelcomeOfferGrant' })
export class WelcomeOfferGrantDto implements WelcomeOfferGrant {
  @ApiProperty({ type: String, format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The friend, now a member' })
  memberId!: string;

  @ApiProperty({ type: String })
  memberName!: string;

  @ApiProperty({ type: WelcomeOfferDto, description: 'The offer as it was at approval' })
  offer!: WelcomeOfferDto;

  @ApiProperty({ type: String, example: '$20 off your first 3 months' })
  wording!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  grantedAt!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the owner marked it honoured, or Stripe applied it',
  })
  honouredAt!: string | null;

  @ApiProperty({
    type: WelcomeOfferInStripeDto,
    nullable: true,
    description: "Its coupon in the gym's Stripe; null when not applied through Stripe",
  })
  stripe!: WelcomeOfferInStripeDto | null;
}

/**
 * `GET /api/welcome-offers`: the granted offers, to honour first (at most 200), and whether an
 * approval now writes the offer to the gym's Stripe (its member billing is connected).
 */
@ApiSchema({ name: 'WelcomeOfferGrants' })
export class WelcomeOfferGrantsDto {
  @ApiProperty({ type: [WelcomeOfferGrantDto] })
  items!: WelcomeOfferGrantDto[];

  @ApiProperty({
    type: Boolean,
    description:
      "An approval writes an amount, percentage or free-months offer to the friend's Stripe subscription",
  })
  appliesInStripe!: boolean;
}
