import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { STAFF_ROLES, type SessionUser, type StaffRole } from '@grove/contracts';

/** The signed-in owner's business, with how its money and dates are written (docs/decisions/business-locale.md). */
@ApiSchema({ name: 'SessionBusiness' })
export class SessionBusinessDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Green Valley Fitness' })
  name!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2', example: 'AU' })
  country!: string;

  @ApiProperty({ description: 'BCP 47, English with the country’s conventions', example: 'en-AU' })
  locale!: string;

  @ApiProperty({ description: 'ISO 4217', example: 'AUD' })
  currency!: string;

  @ApiProperty({
    description: 'IANA time zone the dates are shown in',
    example: 'Australia/Sydney',
  })
  timeZone!: string;
}

/**
 * The signed-in member of staff (the owner or invited staff), their role and their business: the reply of `GET /api/auth/me`, sign-up, login,
 * refresh and a password reset (docs/product.md#signed-in-frame).
 */
@ApiSchema({ name: 'SessionUser' })
export class SessionUserDto implements SessionUser {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'owner@example.com' })
  email!: string;

  @ApiProperty({ example: 'Siobhán' })
  firstName!: string;

  @ApiProperty({ example: "O'Brien" })
  lastName!: string;

  @ApiProperty({ description: 'What the account button shows: first and last name' })
  username!: string;

  @ApiProperty({
    enum: STAFF_ROLES,
    enumName: 'StaffRole',
    description:
      'What the user may do in the business (docs/product.md#staff-accounts); the web hides what the role cannot do',
  })
  role!: StaffRole;

  @ApiProperty({ type: SessionBusinessDto })
  business!: SessionBusinessDto;

  @ApiPropertyOptional({
    enum: [true],
    description:
      'Present (true) only in the login reply of an owner whose password no longer meets the password rule',
  })
  passwordChangeRequired?: true;

  @ApiPropertyOptional({
    enum: [true],
    description:
      'Present (true) only in the login reply of a member of staff without a second factor whose business requires one: the dashboard sends them to set one up',
  })
  secondFactorSetupRequired?: true;
}
