import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MESSAGES } from '@grove/contracts';

/**
 * The fields every public form of the site shares (the contact form, the landing page's 'Learn
 * More' pop-up): the visitor's email, the country their phone number is read for, and the captcha
 * widget's solution. Only the types are checked here; each form's contracts validator gives the
 * fields their messages (docs/product.md#validation-contact).
 */
export abstract class PublicFormDto {
  @ApiProperty({ example: 'sam@example.com' })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidEmail })
  email?: string;

  @ApiProperty({
    example: 'AU',
    required: false,
    description:
      'The country the phone number is read for, ISO 3166-1 alpha-2 (docs/product.md#country); Australia when absent',
  })
  @IsOptional()
  @IsString({ message: MESSAGES.countryInvalid })
  country?: string;

  @ApiProperty({
    description:
      "The captcha widget's solution: altcha base64 payload, or the reCAPTCHA/Turnstile token",
  })
  @IsOptional()
  @IsString({ message: MESSAGES.contactFailed })
  captcha?: string;
}
