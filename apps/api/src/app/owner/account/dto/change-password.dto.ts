import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { MESSAGES, type ChangePasswordRequest } from '@grove/contracts';
import { NewPasswordProperty } from '../../../platform/auth/dto/new-password.property';

/**
 * `POST /api/account/password` body. Only types and sizes are checked here; the rules run in the
 * service with contracts' `validatePasswordChange` (the same function the web form uses).
 */
export class ChangePasswordDto implements ChangePasswordRequest {
  @ApiProperty({ example: 'correct horse battery' })
  @IsString({ message: MESSAGES.currentPasswordRequired })
  @MaxLength(1000, { message: MESSAGES.currentPasswordWrong })
  currentPassword!: string;

  @NewPasswordProperty()
  newPassword!: string;
}
