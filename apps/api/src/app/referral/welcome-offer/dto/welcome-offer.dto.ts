import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  AMOUNT_MAX_CENTS,
  validateWelcomeOffer,
  WELCOME_OFFER_KINDS,
  WELCOME_OFFER_MAX_MONTHS,
  WELCOME_OFFER_TEXT_MAX_LENGTH,
  type WelcomeOffer,
  type WelcomeOfferKind,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * `PUT /api/settings/welcome-offer` body, and the reply of `GET` and `PUT`
 * (docs/product.md#welcome-offer): the friend's welcome offer. Checked by contracts'
 * `validateWelcomeOffer` (a known `kind`; `amountCents` 1–100,000,000 cents for `amount`;
 * `percent` 1–100 for `percent`; `months` 1–24 for `amount`, `percent` and `free`; `text` 1–100
 * characters of plain text for `text`): else 400 with its message and `fieldErrors`, nothing
 * saved. The fields of another kind are ignored in a body and null in a reply.
 */
@ApiSchema({ name: 'WelcomeOffer' })
@ValidatedBy(validateWelcomeOffer)
export class WelcomeOfferDto implements WelcomeOffer {
  @ApiProperty({ enum: WELCOME_OFFER_KINDS, example: 'amount' })
  @Allow()
  kind!: WelcomeOfferKind;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: 1,
    maximum: AMOUNT_MAX_CENTS,
    example: 2000,
    description: 'Amount off each month, integer cents (kind amount)',
  })
  @Allow()
  amountCents!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: 1,
    maximum: 100,
    example: 50,
    description: 'Percentage off each month (kind percent)',
  })
  @Allow()
  percent!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: 1,
    maximum: WELCOME_OFFER_MAX_MONTHS,
    example: 3,
    description: 'How many first months the offer runs (kinds amount, percent, free)',
  })
  @Allow()
  months!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    required: false,
    maxLength: WELCOME_OFFER_TEXT_MAX_LENGTH,
    example: 'a free class',
    description: 'The offer in the owner’s words, honoured by hand (kind text)',
  })
  @Allow()
  text!: string | null;
}
