import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { AccountDetails } from '@grove/contracts';

/** `GET/PATCH /api/account` (signed in): the owner's name and the business's details (Account Settings). */
@ApiSchema({ name: 'AccountDetails' })
export class AccountDetailsDto implements AccountDetails {
  @ApiProperty({ example: 'Siobhán' })
  firstName!: string;

  @ApiProperty({ example: "O'Brien" })
  lastName!: string;

  @ApiProperty({ description: 'The sign-in email (not editable here)' })
  email!: string;

  @ApiProperty({ example: 'Green Valley Fitness' })
  businessName!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 (docs/product.md#country)', example: 'AU' })
  country!: string;

  @ApiProperty({ description: 'IANA time zone the business’s dates are shown in' })
  timeZone!: string;

  @ApiProperty({ example: '0412 345 678' })
  phoneNumber!: string;

  @ApiProperty({ example: 'https://greenvalley.example.com' })
  website!: string;
}
