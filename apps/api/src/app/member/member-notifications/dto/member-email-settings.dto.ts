import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { MEMBER_EMAIL_SETTINGS_INVALID, type MemberEmailSettings } from '@grove/contracts';

/** `PUT /api/settings/member-emails` body: all four settings, each true or false (JSON booleans). */
export class MemberEmailSettingsDto implements MemberEmailSettings {
  @ApiProperty()
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  friendJoined!: boolean;

  @ApiProperty()
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  branchCounting!: boolean;

  @ApiProperty()
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  branchEnded!: boolean;

  @ApiProperty()
  @IsBoolean({ message: MEMBER_EMAIL_SETTINGS_INVALID })
  welcome!: boolean;
}
