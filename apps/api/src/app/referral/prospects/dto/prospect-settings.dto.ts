import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { PROSPECT_SETTINGS_INVALID, type ProspectSettings } from '@grove/contracts';

/**
 * `PUT /api/settings/prospects` body: `{ autoApprove: true|false }` (a JSON boolean); also the
 * reply of `GET/PUT /api/settings/prospects` (`ProspectSettings`).
 */
@ApiSchema({ name: 'ProspectSettings' })
export class ProspectSettingsDto implements ProspectSettings {
  @ApiProperty({
    type: Boolean,
    description: 'Prospects whose join raised no fraud signal are approved at once',
  })
  @IsBoolean({ message: PROSPECT_SETTINGS_INVALID })
  autoApprove!: boolean;
}
