import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { MESSAGES } from '@grove/contracts';

/** One credit the confirmation would write (cents, in `currency`). */
@ApiSchema({ name: 'StripeCredit' })
export class StripeCreditDto {
  @ApiProperty({ type: String, format: 'uuid', description: 'The owed reward' })
  rewardId!: string;

  @ApiProperty({ type: String, description: 'Who is credited' })
  referrerName!: string;

  @ApiProperty({ type: String, description: 'The friend whose branch earned it' })
  branchName!: string;

  @ApiProperty({ type: Number, example: 2500, description: 'Integer cents' })
  amountCents!: number;

  @ApiProperty({ type: String, example: 'AUD', description: 'ISO 4217, upper case' })
  currency!: string;
}

/**
 * `GET /api/stripe-members/credits/preview`: the one-off credits a confirmation writes to the
 * gym's Stripe (at most 200, oldest first), their total (cents) and the fingerprint to confirm.
 */
@ApiSchema({ name: 'StripeCredits' })
export class StripeCreditsDto {
  @ApiProperty({ type: [StripeCreditDto] })
  items!: StripeCreditDto[];

  @ApiProperty({ type: Number, example: 5000, description: 'Integer cents' })
  totalCents!: number;

  @ApiProperty({ type: String, example: '3f1c0e9a4b2d8c7e6f5a4b3c2d1e0f9a' })
  fingerprint!: string;
}

/**
 * Body of `POST /api/stripe-members/credits`: `confirm`, the `fingerprint` of the preview the
 * owner confirmed (32 lowercase hex digits). Anything else → 400
 * `MESSAGES.mindbodySyncConfirmRequired`.
 */
export class StripeCreditsConfirmDto {
  @ApiProperty({ example: '3f1c0e9a4b2d8c7e6f5a4b3c2d1e0f9a' })
  @IsOptional()
  @IsString({ message: MESSAGES.mindbodySyncConfirmRequired })
  @Matches(/^[0-9a-f]{32}$/, { message: MESSAGES.mindbodySyncConfirmRequired })
  confirm?: string;
}

/** `POST /api/stripe-members/credits`: how many credits were written. */
@ApiSchema({ name: 'StripeCreditsResult' })
export class StripeCreditsResultDto {
  @ApiProperty({ type: Number, example: 2 })
  credited!: number;
}
