import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import {
  MESSAGES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type ChangePasswordRequest,
} from '@grove/contracts';

/**
 * `POST /api/account/password` body. Only types and sizes are checked here; the rules run in the
 * service with contracts' `validatePasswordChange` (the same function the web form uses).
 */
export class ChangePasswordDto implements ChangePasswordRequest {
  @ApiProperty({ example: 'correct horse battery' })
  @IsString({ message: MESSAGES.currentPasswordRequired })
  @MaxLength(1000, { message: MESSAGES.currentPasswordWrong })
  currentPassword!: string;

  @ApiProperty({
    example: 'a new long passphrase',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
  })
  @IsString({ message: MESSAGES.passwordTooShort })
  @MaxLength(1000, { message: MESSAGES.passwordTooLong })
  newPassword!: string;
}
