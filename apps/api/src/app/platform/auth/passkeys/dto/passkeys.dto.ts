import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { PASSKEY_MESSAGES, SECOND_FACTOR_MESSAGES, validatePasskeyName } from '@grove/contracts';
import { ValidatedBy } from '../../../common/validated-by';

const RESPONSE_PROPERTY = {
  type: 'object',
  additionalProperties: true,
  description:
    "The browser's answer as `@simplewebauthn/browser` gives it (`startRegistration` / `startAuthentication`): `id`, `rawId`, `type`, `response` in base64url",
} as const;

/** Options for the browser's WebAuthn call (`@simplewebauthn/browser`'s `optionsJSON`). */
@ApiSchema({ name: 'PasskeyOptions' })
export class PasskeyOptionsDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'PublicKeyCredentialCreationOptionsJSON (registration) or PublicKeyCredentialRequestOptionsJSON (sign-in); its challenge works once, for 5 minutes',
  })
  options!: Record<string, unknown>;
}

/** `POST /api/account/passkeys` body: the new passkey's name and the browser's answer. */
@ValidatedBy(validatePasskeyName)
export class AddPasskeyDto {
  @ApiProperty({ example: 'Siobhán’s iPhone', maxLength: 60 })
  @IsString({ message: PASSKEY_MESSAGES.nameMissing })
  @MaxLength(200, { message: PASSKEY_MESSAGES.nameTooLong })
  name!: string;

  @ApiProperty(RESPONSE_PROPERTY)
  @IsObject({ message: PASSKEY_MESSAGES.responseMissing })
  response!: Record<string, unknown>;
}

/** `POST /api/auth/passkey/options` body: the login's 202 challenge, when the password came first. */
export class PasskeySignInOptionsDto {
  @ApiPropertyOptional({
    description:
      "The `challenge` of the login's 202 reply: the passkey must then be that user's. Without it: a sign-in without a password.",
  })
  @IsOptional()
  @IsString({ message: SECOND_FACTOR_MESSAGES.challengeExpired })
  @MaxLength(200, { message: SECOND_FACTOR_MESSAGES.challengeExpired })
  challenge?: string;
}

/** `POST /api/auth/passkey` body: the browser's answer to the sign-in options. */
export class PasskeySignInDto {
  @ApiProperty(RESPONSE_PROPERTY)
  @IsObject({ message: PASSKEY_MESSAGES.responseMissing })
  response!: Record<string, unknown>;
}

/** A registered passkey. */
@ApiSchema({ name: 'Passkey' })
export class PasskeyDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Siobhán’s iPhone' })
  name!: string;

  @ApiProperty({ description: "Synced to the user's other devices (backed up)" })
  backedUp!: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  lastUsedAt!: string | null;
}

/** A passkey just added; the first second factor of an account also brings its recovery codes. */
@ApiSchema({ name: 'AddedPasskey' })
export class AddedPasskeyDto {
  @ApiProperty({ type: PasskeyDto })
  passkey!: PasskeyDto;

  @ApiPropertyOptional({
    type: [String],
    description: '10 recovery codes, shown once: only when this passkey is the first second factor',
  })
  recoveryCodes?: string[];
}
