import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { MEMBER_EMAIL_SETTINGS_INVALID, type MemberEmailSettings } from '@grove/contracts';

/**
 * `PUT /api/settings/member-emails` body: all four settings, each true or false (JSON booleans);
 * also the reply of `GET` and `PUT` (the saved settings).
 */
@ApiSchema({ name: 'MemberEmailSettings' })
export class MemberEmailSettingsDto implements MemberEmailSettings {
  @ApiProperty({ description: '"{friend} joined with your link", to the referrer' })
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  friendJoined!: boolean;

  @ApiProperty({ description: '"{friend} is now your branch", to the referrer' })
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  branchCounting!: boolean;

  @ApiProperty({ description: '"{friend} no longer counts as your branch", to the referrer' })
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  branchEnded!: boolean;

  @ApiProperty({ description: 'A welcome to the approved friend' })
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  welcome!: boolean;
}
