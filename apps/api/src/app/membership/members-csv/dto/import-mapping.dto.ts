import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import type { MemberCsvMapping, MemberImportMappingRequest } from '@grove/contracts';

/**
 * Body of the dry run and the run: which file column (0-based) feeds each member field, null for
 * none. Its fields and columns are checked against the upload by the service
 * (`MembersCsvService.checkMapping`), which knows the file's columns.
 */
export class ImportMappingDto implements MemberImportMappingRequest {
  @ApiProperty({
    example: {
      memberName: 0,
      memberEmail: 1,
      membershipPrice: 2,
      discount: 3,
      referrerEmail: null,
    },
  })
  @IsObject({ message: 'mapping must be an object' })
  mapping!: MemberCsvMapping;
}
