import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import {
  DEFAULT_COUNTRY,
  MESSAGES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type SignupInput,
  validateSignupInput,
} from '@grove/contracts';
import { ValidatedBy } from '../../common/validated-by';
import { isCommonPassword } from '../common-passwords';

/**
 * `POST /api/auth/signup` body: docs/product.md#entities's signup fields plus the business name and a password.
 * The types are checked field by field, then contracts' `validateSignupInput` (with the
 * common-password list) runs its rules in order (docs/product.md#validation-signup), so the 400
 * reply carries exactly the first SPEC message that applies.
 */
@ValidatedBy((body: SignupDto) => validateSignupInput(body.toInput(), isCommonPassword))
export class SignupDto implements Partial<SignupInput> {
  @ApiProperty({ example: 'Green Valley Fitness' })
  @IsOptional()
  @IsString({ message: MESSAGES.fillAllFields })
  businessName?: string;

  @ApiProperty({ example: 'Sam' })
  @IsOptional()
  @IsString({ message: MESSAGES.fillAllFields })
  firstName?: string;

  @ApiProperty({ example: 'Lee' })
  @IsOptional()
  @IsString({ message: MESSAGES.fillAllFields })
  lastName?: string;

  @ApiProperty({ example: 'sam@greenvalley.com.au' })
  @IsOptional()
  @IsString({ message: MESSAGES.fillAllFields })
  email?: string;

  @ApiProperty({
    example: '0412 345 678',
    description: 'A valid number for `country`, or in international format (+…)',
  })
  @IsOptional()
  @IsString({ message: MESSAGES.fillAllFields })
  phoneNumber?: string;

  @ApiProperty({
    example: 'AU',
    required: false,
    description:
      "The business's country, ISO 3166-1 alpha-2 (docs/product.md#country); the phone number is read for it. Australia when absent.",
  })
  @IsOptional()
  @IsString({ message: MESSAGES.countryInvalid })
  country?: string;

  @ApiProperty({ example: 'greenvalley.com.au' })
  @IsOptional()
  @IsString({ message: MESSAGES.fillAllFields })
  website?: string;

  @ApiProperty({
    example: 'correct horse battery',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
  })
  @IsOptional()
  @IsString({ message: MESSAGES.fillAllFields })
  password?: string;

  /** The body with absent fields as empty strings, ready for `validateSignupInput`. */
  toInput(): SignupInput {
    return {
      businessName: this.businessName ?? '',
      country: this.country ?? DEFAULT_COUNTRY,
      firstName: this.firstName ?? '',
      lastName: this.lastName ?? '',
      email: this.email ?? '',
      phoneNumber: this.phoneNumber ?? '',
      website: this.website ?? '',
      password: this.password ?? '',
    };
  }
}
