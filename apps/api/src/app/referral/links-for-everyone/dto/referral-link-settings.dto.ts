import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import type { ReferralLinkSettings } from '@grove/contracts';

/** Body of `PUT /api/referral-links/settings`. */
export class ReferralLinkSettingsDto implements ReferralLinkSettings {
  @ApiProperty({ description: 'Every new member gets a referral link at once' })
  @IsBoolean()
  autoCreate!: boolean;
}
