import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { PASSKEY_MESSAGES } from '@grove/contracts';
import { NewPasswordProperty } from '../../../platform/auth/dto/new-password.property';

/**
 * `POST /api/account/password/set` body: the first password of an account that joined with a
 * passkey, and the browser's answer to `POST /api/account/password/set/options` (one of the
 * user's passkeys confirming it is them). Only types and sizes are checked here; the password
 * rule runs in the service with contracts' `validatePasswordSet` (the same function the web form
 * uses).
 */
export class SetPasswordDto {
  @NewPasswordProperty()
  newPassword!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "AuthenticationResponseJSON: @simplewebauthn/browser's startAuthentication answer to the options",
  })
  @IsObject({ message: PASSKEY_MESSAGES.responseMissing })
  response!: Record<string, unknown>;
}
