import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { MemberDefaults } from '@grove/contracts';

/**
 * Reply of `GET/PUT /api/settings/member-defaults` (docs/product.md#member-defaults): the
 * business's default discount per referral and membership price for new members, integer cents,
 * null when not set (the default). The body of the `PUT` is `MemberDefaultsDto` (same fields).
 */
@ApiSchema({ name: 'MemberDefaults' })
export class MemberDefaultsReplyDto implements MemberDefaults {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1500,
    description: 'Default discount per referral, cents (null: none)',
  })
  discountCents!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 8900,
    description: 'Default membership price, cents (null: none)',
  })
  membershipPriceCents!: number | null;
}
