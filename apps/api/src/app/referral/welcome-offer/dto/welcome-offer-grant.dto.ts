import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { WelcomeOfferGrant } from '@grove/contracts';
import { WelcomeOfferDto } from './welcome-offer.dto';

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

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  honouredAt!: string | null;
}

/** `GET /api/welcome-offers`: the granted offers, to honour first (at most 200). */
@ApiSchema({ name: 'WelcomeOfferGrants' })
export class WelcomeOfferGrantsDto {
  @ApiProperty({ type: [WelcomeOfferGrantDto] })
  items!: WelcomeOfferGrantDto[];
}
