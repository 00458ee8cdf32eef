import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { MESSAGES, type UpdateAccountRequest } from '@grove/contracts';
import { IsOmittable } from '../../../platform/common/contract-rule.decorator';

/**
 * `PATCH /api/account` body: any subset of the owner's names and the business's name, country,
 * time zone, phone and website (email is not editable). Only types are checked here; the docs/product.md#validation-signup signup rules run in
 * the service with contracts' `validateAccountDetails` (the same function Account Settings uses),
 * so each field gets its signup message. A field sent as `null` → 400 (its type message).
 */
export class UpdateAccountDto implements UpdateAccountRequest {
  @ApiPropertyOptional({ example: 'Sam' })
  @IsOmittable()
  @IsString({ message: MESSAGES.fillAllFields })
  firstName?: string;

  @ApiPropertyOptional({ example: 'Lee' })
  @IsOmittable()
  @IsString({ message: MESSAGES.fillAllFields })
  lastName?: string;

  @ApiPropertyOptional({ example: 'Green Valley Fitness' })
  @IsOmittable()
  @IsString({ message: MESSAGES.businessNameRequired })
  businessName?: string;

  @ApiPropertyOptional({
    example: 'AU',
    description: "The business's country, ISO 3166-1 alpha-2 (docs/product.md#country)",
  })
  @IsOmittable()
  @IsString({ message: MESSAGES.countryInvalid })
  country?: string;

  @ApiPropertyOptional({
    example: 'Australia/Perth',
    description:
      "IANA time zone the business's dates are shown in (docs/decisions/business-locale.md); a new `country` without it resets it to that country's main zone",
  })
  @IsOmittable()
  @IsString({ message: MESSAGES.timeZoneInvalid })
  timeZone?: string;

  @ApiPropertyOptional({ example: '0412 345 678' })
  @IsOmittable()
  @IsString({ message: MESSAGES.fillAllFields })
  phoneNumber?: string;

  @ApiPropertyOptional({ example: 'greenvalley.com.au' })
  @IsOmittable()
  @IsString({ message: MESSAGES.fillAllFields })
  website?: string;
}
