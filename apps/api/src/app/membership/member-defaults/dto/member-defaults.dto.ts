import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import {
  isValidDefaultCents,
  MEMBER_DEFAULT_MAX_CENTS,
  MESSAGES,
  type MemberDefaults,
} from '@grove/contracts';

/** A field that is null or whole cents 0–100,000,000 (contracts' `isValidDefaultCents`), else `message`. */
const DefaultCents = (message: string): PropertyDecorator =>
  ValidateBy({
    name: 'defaultCents',
    validator: {
      validate: (value: unknown) => isValidDefaultCents(value),
      defaultMessage: () => message,
    },
  });

/**
 * `PUT /api/settings/member-defaults` body (docs/product.md#member-defaults): both fields, each
 * integer cents from 0 to 100,000,000 ($1,000,000) or null (no default). A missing field, text,
 * a fraction of a cent or a negative amount → 400 with the add-member form's message
 * (docs/product.md#validation: 'Not a valid discount price', 'Not a valid amount').
 */
export class MemberDefaultsDto implements MemberDefaults {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1500,
    minimum: 0,
    maximum: MEMBER_DEFAULT_MAX_CENTS,
    description: 'Default discount per referral, cents (null: none)',
  })
  @DefaultCents(MESSAGES.invalidDiscount)
  discountCents!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 8900,
    minimum: 0,
    maximum: MEMBER_DEFAULT_MAX_CENTS,
    description: 'Default membership price, cents (null: none)',
  })
  @DefaultCents(MESSAGES.invalidAmount)
  membershipPriceCents!: number | null;
}
