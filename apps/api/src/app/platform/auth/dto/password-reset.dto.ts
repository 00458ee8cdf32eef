import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsString, MaxLength } from 'class-validator';
import {
  EMAIL_MAX_LENGTH,
  MESSAGES,
  type PasswordResetConfirmRequest,
  type PasswordResetRequest,
  validatePasswordResetRequest,
} from '@grove/contracts';
import { ValidatedBy } from '../../common/validated-by';
import { NewPasswordProperty } from './new-password.property';

/**
 * `POST /api/auth/password-reset` body: the owner's login email, checked with contracts'
 * `validatePasswordResetRequest` ('Not a valid email address'); whether an account uses it is
 * never told.
 */
@ValidatedBy(validatePasswordResetRequest)
export class PasswordResetRequestDto implements PasswordResetRequest {
  @ApiProperty({ example: 'sam@greenvalley.com.au', maxLength: EMAIL_MAX_LENGTH })
  @Allow()
  email!: string;
}

/**
 * `POST /api/auth/password-reset/confirm` body: the reset link's token (from its `#token=`) and
 * the new password. Only types and sizes are checked here; the password rule runs in the service
 * (contracts' `validatePasswordReset`, the same function the web form uses) and an unknown, used
 * or expired token answers 'This link has expired or has already been used. Ask for a new one.'
 */
export class PasswordResetConfirmDto implements PasswordResetConfirmRequest {
  @ApiProperty({
    example: 'k3Jv…43 base64url characters',
    description: 'From the link, `#token=…`',
  })
  @IsString({ message: MESSAGES.passwordResetLinkInvalid })
  @MaxLength(200, { message: MESSAGES.passwordResetLinkInvalid })
  token!: string;

  @NewPasswordProperty()
  password!: string;
}
