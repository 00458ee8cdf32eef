import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { SECOND_FACTOR_MESSAGES } from '@grove/contracts';

const CODE_PROPERTY = {
  example: '492039',
  description: 'A 6-digit code from the authenticator app, or a recovery code (`xxxxx-xxxxx`)',
  maxLength: 40,
} as const;

/** `POST /api/auth/second-factor` body: the challenge of the login reply and the code. */
export class SecondFactorAnswerDto {
  @ApiProperty({ description: 'The `challenge` of the 202 login reply', example: 'k3Jv…' })
  @IsString({ message: SECOND_FACTOR_MESSAGES.challengeExpired })
  @MaxLength(200, { message: SECOND_FACTOR_MESSAGES.challengeExpired })
  challenge!: string;

  @ApiProperty(CODE_PROPERTY)
  @IsString({ message: SECOND_FACTOR_MESSAGES.codeInvalid })
  @MaxLength(40, { message: SECOND_FACTOR_MESSAGES.codeInvalid })
  code!: string;
}

/** `POST /api/account/second-factor/totp/confirm` body: a code the app shows now. */
export class TotpCodeDto {
  @ApiProperty({ ...CODE_PROPERTY, description: 'A 6-digit code from the authenticator app' })
  @IsString({ message: SECOND_FACTOR_MESSAGES.codeInvalid })
  @MaxLength(40, { message: SECOND_FACTOR_MESSAGES.codeInvalid })
  code!: string;
}

/**
 * What proves the user before a factor changes (`POST /api/account/second-factor/totp/disable`,
 * `POST /api/account/second-factor/recovery-codes`): a code, a recovery code or the password.
 */
export class FactorProofDto {
  @ApiPropertyOptional(CODE_PROPERTY)
  @IsOptional()
  @IsString({ message: SECOND_FACTOR_MESSAGES.codeInvalid })
  @MaxLength(40, { message: SECOND_FACTOR_MESSAGES.codeInvalid })
  code?: string;

  @ApiPropertyOptional({ description: 'The current password', maxLength: 1000 })
  @IsOptional()
  @IsString({ message: SECOND_FACTOR_MESSAGES.disableNeedsProof })
  @MaxLength(1000, { message: SECOND_FACTOR_MESSAGES.disableProofWrong })
  password?: string;
}

/** The 202 reply of a login whose password was right when a second factor is set up. */
@ApiSchema({ name: 'SecondFactorChallenge' })
export class SecondFactorChallengeDto {
  @ApiProperty({ enum: [true] })
  secondFactorRequired!: true;

  @ApiProperty({
    description: 'Send it back with the code to `POST /api/auth/second-factor` (5 minutes, once)',
  })
  challenge!: string;

  @ApiProperty({ description: 'The user has an authenticator app: ask for its code' })
  totp!: boolean;

  @ApiProperty({
    description:
      'The user has a passkey: offer it (`POST /api/auth/passkey/options` with this challenge)',
  })
  passkey!: boolean;
}

/** The Security card's state. */
@ApiSchema({ name: 'SecondFactorStatus' })
export class SecondFactorStatusDto {
  @ApiProperty({ description: 'An authenticator app is set up (sign-in asks for its code)' })
  totp!: boolean;

  @ApiProperty({ description: 'Passkeys registered', example: 1 })
  passkeys!: number;

  @ApiProperty({ description: 'An authenticator app or a passkey is set up' })
  hasFactor!: boolean;

  @ApiProperty({ description: 'Unused recovery codes', example: 10 })
  recoveryCodesLeft!: number;

  @ApiProperty({ description: 'The business requires a second factor of every member of staff' })
  businessRequires!: boolean;

  @ApiProperty({
    description:
      "The account has a password the person chose (false: joined with a passkey, none set since: Security offers 'Set a password')",
  })
  passwordSet!: boolean;
}

/** `PUT /api/settings/second-factor` body. */
export class SecondFactorRequirementDto {
  @ApiProperty({ description: 'Require a second factor of every member of staff' })
  @IsBoolean({ message: SECOND_FACTOR_MESSAGES.requirementInvalid })
  required!: boolean;
}

/** An authenticator app being set up: shown once. */
@ApiSchema({ name: 'TotpEnrolment' })
export class TotpEnrolmentDto {
  @ApiProperty({ description: 'The base32 secret, to type by hand', example: 'JBSWY3DPEHPK3PXP' })
  secret!: string;

  @ApiProperty({ description: 'The otpauth:// URI the QR code holds' })
  uri!: string;

  @ApiProperty({ description: 'The QR code of `uri`, an SVG document' })
  qrSvg!: string;
}

/** Recovery codes, shown once. */
@ApiSchema({ name: 'RecoveryCodes' })
export class RecoveryCodesDto {
  @ApiProperty({ type: [String], example: ['7hk2m-q9x4t'] })
  recoveryCodes!: string[];
}
