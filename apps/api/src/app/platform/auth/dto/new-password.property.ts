import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { MESSAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@grove/contracts';

/**
 * A new password in a request body (a password change, a reset): documented with the product's
 * length rule (PASSWORD_MIN_LENGTH..PASSWORD_MAX_LENGTH characters), checked here only for its type
 * and a hard cap of 1000 characters ('Password is too long', so hashing never sees a huge
 * string); the length and breached-password rules run in the service with the contracts validator
 * the web form uses.
 */
export function NewPasswordProperty(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      example: 'a new long passphrase',
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
    }),
    IsString({ message: MESSAGES.passwordTooShort }),
    MaxLength(1000, { message: MESSAGES.passwordTooLong }),
  );
}
