import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import {
  DEFAULT_COUNTRY,
  LEAD_COMPANY_MAX_LENGTH,
  MESSAGES,
  type LeadInput,
  type LeadRequest,
  validateLeadInput,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';
import { PublicFormDto } from '../../public-form.dto';

/**
 * `POST /api/leads` body: the landing page's 'Learn More' pop-up (docs/product.md#landing-page Landing page: fullName,
 * email, country, phone, company) and the captcha widget's solution (the contact form's captcha).
 * The types are checked field by field, then contracts' `validateLeadInput` (the same function the
 * pop-up uses), so each field gets exactly its message, before the captcha is verified.
 */
@ValidatedBy((body: LeadDto) => validateLeadInput(body.toInput()))
export class LeadDto extends PublicFormDto implements Partial<LeadRequest> {
  @ApiProperty({ example: 'Sam Lee', maxLength: 100 })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidName })
  fullName?: string;

  @ApiProperty({ example: '0412 345 678' })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidPhone })
  phone?: string;

  @ApiProperty({ example: 'Green Valley Fitness', maxLength: LEAD_COMPANY_MAX_LENGTH })
  @IsOptional()
  @IsString({ message: MESSAGES.companyRequired })
  company?: string;

  /** The form's fields with absent ones as empty strings, ready for `validateLeadInput`. */
  toInput(): LeadInput {
    return {
      fullName: this.fullName ?? '',
      email: this.email ?? '',
      country: this.country ?? DEFAULT_COUNTRY,
      phone: this.phone ?? '',
      company: this.company ?? '',
    };
  }
}
