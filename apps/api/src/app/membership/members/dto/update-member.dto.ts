import { PartialType } from '@nestjs/swagger';
import { validateMemberChanges } from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';
import { MemberFieldsDto } from './create-member.dto';

/**
 * Body of `PATCH /api/members/:id`: any of the member fields (`MemberFieldsDto`'s, each
 * optional), same rules and messages (contracts' `validateMemberChanges`,
 * docs/product.md#validation); amounts in integer cents. A field sent as `null` fails its rule
 * (400 with the field's message).
 */
@ValidatedBy(validateMemberChanges)
export class UpdateMemberDto extends PartialType(MemberFieldsDto) {}
