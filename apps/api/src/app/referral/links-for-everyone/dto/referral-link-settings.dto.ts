import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import type { ReferralLinkSettings } from '@grove/contracts';

/** Body of `PUT /api/referral-links/settings`; also the reply of `GET/PUT` (`ReferralLinkSettings`). */
@ApiSchema({ name: 'ReferralLinkSettings' })
export class ReferralLinkSettingsDto implements ReferralLinkSettings {
  @ApiProperty({
    type: Boolean,
    description: 'Every new member gets a referral link at once',
  })
  @IsBoolean()
  autoCreate!: boolean;
}
