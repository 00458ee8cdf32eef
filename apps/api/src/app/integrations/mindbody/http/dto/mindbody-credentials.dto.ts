import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';
import {
  MINDBODY_CREDENTIAL_MAX_LENGTH,
  MINDBODY_SITE_ID_MAX_LENGTH,
  validateMindbodyCredentials,
  type MindbodyCredentialsInput,
} from '@grove/contracts';
import { trimString } from '../../../../platform/common/contract-rule.decorator';
import { ValidatedBy } from '../../../../platform/common/validated-by';

/**
 * Body of `POST /api/mindbody/credentials`, checked by contracts' `validateMindbodyCredentials`
 * (docs/product.md#validation-mindbody: username, password and site ID all required;
 * docs/product.md#errors: 'Invalid credentials provided' when any is missing, or when the username
 * or site ID holds a control character). The username and site ID are trimmed, the password never.
 */
@ValidatedBy(validateMindbodyCredentials)
export class MindbodyCredentialsDto implements MindbodyCredentialsInput {
  @ApiProperty({ example: 'owner@sandbox.example.com', maxLength: MINDBODY_CREDENTIAL_MAX_LENGTH })
  @Allow()
  @Transform(trimString)
  username!: string;

  @ApiProperty({
    example: 'sandbox-pass-1234',
    format: 'password',
    maxLength: MINDBODY_CREDENTIAL_MAX_LENGTH,
  })
  @Allow()
  password!: string;

  @ApiProperty({
    example: '-99',
    description: 'Mindbody site ID',
    maxLength: MINDBODY_SITE_ID_MAX_LENGTH,
  })
  @Allow()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' ? String(value) : trimString({ value }),
  )
  siteId!: string;
}
