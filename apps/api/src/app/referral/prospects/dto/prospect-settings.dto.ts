import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { PROSPECT_SETTINGS_INVALID, type ProspectSettings } from '@grove/contracts';

/** `PUT /api/settings/prospects` body: `{ autoApprove: true|false }` (a JSON boolean). */
export class ProspectSettingsDto implements ProspectSettings {
  @ApiProperty()
  @IsBoolean({ message: PROSPECT_SETTINGS_INVALID })
  autoApprove!: boolean;
}
