import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { isValidEmail, isValidName, isValidPhone, LEAD_COMPANY_MAX_LENGTH, MESSAGES, type LeadRequest } from '@grove/contracts';
import { FollowsRule, trimString } from '../../common/contract-rule.decorator';

/**
 * `POST /api/leads` body: the landing page's 'Learn More' pop-up (SPEC §2 Landing page: fullName,
 * email, phone, company). Rules: SPEC §5 name and email rules, a valid phone number (read as
 * Australian without a country code, SPEC §9), company required and at most 200 characters.
 */
export class LeadDto implements LeadRequest {
  @ApiProperty({ example: 'Sam Lee', maxLength: 100 })
  @Transform(trimString)
  @FollowsRule(isValidName, MESSAGES.invalidName)
  fullName!: string;

  @ApiProperty({ example: 'sam@mygym.com.au' })
  @Transform(trimString)
  @FollowsRule(isValidEmail, MESSAGES.invalidEmail)
  email!: string;

  @ApiProperty({ example: '0412 345 678' })
  @Transform(trimString)
  @FollowsRule(isValidPhone, MESSAGES.invalidPhone)
  phone!: string;

  @ApiProperty({ example: 'Green Valley Fitness', maxLength: LEAD_COMPANY_MAX_LENGTH })
  @Transform(trimString)
  @IsString({ message: MESSAGES.companyRequired })
  @IsNotEmpty({ message: MESSAGES.companyRequired })
  @MaxLength(LEAD_COMPANY_MAX_LENGTH, { message: MESSAGES.companyTooLong })
  company!: string;
}
