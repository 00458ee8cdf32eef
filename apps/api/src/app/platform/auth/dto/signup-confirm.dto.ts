import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import {
  SIGNUP_CONFIRM_MESSAGES,
  type SignupAccepted,
  type SignupConfirmRequest,
} from '@grove/contracts';

/** `POST /api/auth/signup` → 202: the same answer for every address (docs/product.md#signup). */
export class SignupAcceptedDto implements SignupAccepted {
  @ApiProperty({ enum: ['check-email'], example: 'check-email' })
  status!: 'check-email';
}

/**
 * `POST /api/auth/signup/confirm` body: the sign-up link's token (from its `#token=`). Only its
 * type and size are checked here; an unknown, used or expired token answers 'This link has
 * expired or was already used. Sign up again.'
 */
export class SignupConfirmDto implements SignupConfirmRequest {
  @ApiProperty({
    example: 'k3Jv…43 base64url characters',
    description: 'From the link, `#token=…`',
  })
  @IsString({ message: SIGNUP_CONFIRM_MESSAGES.linkInvalid })
  @MaxLength(200, { message: SIGNUP_CONFIRM_MESSAGES.linkInvalid })
  token!: string;
}
