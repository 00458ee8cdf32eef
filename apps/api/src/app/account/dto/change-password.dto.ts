import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { MESSAGES, type ChangePasswordRequest } from '@grove/contracts';

/** `POST /api/account/password` body. */
export class ChangePasswordDto implements ChangePasswordRequest {
  @ApiProperty({ example: 'correct horse battery' })
  @IsString({ message: MESSAGES.currentPasswordWrong })
  @MaxLength(1000, { message: MESSAGES.currentPasswordWrong })
  currentPassword!: string;

  @ApiProperty({ example: 'a new long passphrase', minLength: 8 })
  @IsString({ message: MESSAGES.passwordTooShort })
  @MaxLength(1000)
  newPassword!: string;
}
