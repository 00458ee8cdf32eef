import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import {
  DEFAULT_COUNTRY,
  MESSAGES,
  type ContactInput,
  type ContactRequest,
  validateContactInput,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';
import { PublicFormDto } from '../../public-form.dto';
import { sanitizePlainText } from '../sanitize-text';

/**
 * `POST /api/contact` body (docs/product.md#entities "Contact message"). The types are checked
 * field by field, then contracts' `validateContactInput` (docs/product.md#validation-contact, the
 * same function the contact page uses, here with the HTML sanitizer), so each field gets exactly
 * its SPEC message, before the captcha is verified.
 */
@ValidatedBy((body: ContactDto) => validateContactInput(body.toInput(), sanitizePlainText))
export class ContactDto extends PublicFormDto implements Partial<ContactRequest> {
  @ApiProperty({ example: 'Sam', maxLength: 100 })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidName })
  firstName?: string;

  @ApiProperty({ example: 'Lee', maxLength: 100 })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidName })
  lastName?: string;

  @ApiProperty({
    example: '0412 345 678',
    description: 'Any valid phone number for `country`, or in international format (+…)',
  })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidPhone })
  phoneNumber?: string;

  @ApiProperty({ example: 'https://mygym.com.au' })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidUrl })
  website?: string;

  @ApiProperty({ example: 'Hello! Could we see a demo?', maxLength: 500 })
  @IsOptional()
  @IsString({ message: MESSAGES.messageRequired })
  message?: string;

  /** The form's fields with absent ones as empty strings, ready for `validateContactInput`. */
  toInput(): ContactInput {
    return {
      firstName: this.firstName ?? '',
      lastName: this.lastName ?? '',
      email: this.email ?? '',
      country: this.country ?? DEFAULT_COUNTRY,
      phoneNumber: this.phoneNumber ?? '',
      website: this.website ?? '',
      message: this.message ?? '',
    };
  }
}
