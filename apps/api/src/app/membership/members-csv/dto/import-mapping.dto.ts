import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { MESSAGES, type MemberCsvMapping, type MemberImportMappingRequest } from '@grove/contracts';
import { MemberCsvMappingDto } from './member-import.dto';

/**
 * Body of the dry run and the run: which file column (0-based) feeds each member field, null for
 * none; optionally one discount for every row (when no column feeds it) and the locale the file's
 * amounts are written in. Fields, columns, the discount and the locale are checked against the
 * upload by the service (`MembersCsvService.checkSettings`), which knows the file's columns.
 */
export class ImportMappingDto implements MemberImportMappingRequest {
  @ApiProperty({
    type: MemberCsvMappingDto,
    example: {
      memberName: null,
      firstName: 0,
      lastName: 1,
      memberEmail: 2,
      membershipPrice: 3,
      discount: null,
      referredBy: 4,
    },
  })
  @IsObject({ message: 'mapping must be an object' })
  mapping!: MemberCsvMapping;

  @ApiPropertyOptional({
    type: String,
    example: '5.00',
    description:
      "One discount per branch for every row, as typed ('5', '$5.00', '5,00 €'), when no column feeds the discount",
    nullable: true,
  })
  @IsOptional()
  @IsString({ message: MESSAGES.invalidDiscount })
  @MaxLength(50, { message: MESSAGES.invalidDiscount })
  discountForEveryRow?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'en-US',
    description:
      "BCP 47 locale the file's amounts are written in: whether '1,059' is 1059 or 1.059 (default en-AU)",
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  locale?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'True: also import rows whose email belongs to a member erased on request (the owner confirmed); otherwise each is an error',
  })
  @IsOptional()
  @IsBoolean({ message: 'importErased must be true or false' })
  importErased?: boolean;
}
