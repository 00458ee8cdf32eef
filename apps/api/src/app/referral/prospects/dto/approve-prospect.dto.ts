import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { MESSAGES } from '@grove/contracts';
import { MemberFieldsDto } from '../../../membership/members/dto/create-member.dto';

/**
 * Body of `POST /api/prospects/:id/approve`: the add-branch form (`MemberFieldsDto`,
 * docs/product.md#validation) and, at a business connected to Mindbody, the owner's 'Add to
 * Mindbody' (issue 33 item 4, docs/decisions/mindbody-add-client.md).
 */
export class ApproveProspectDto extends MemberFieldsDto {
  @ApiPropertyOptional({
    type: Boolean,
    description:
      "True: the owner chose 'Add to Mindbody': a job adds the friend as a client of the business's Mindbody site (or links the client of that email). 409 when Mindbody is not connected (imported); nothing is written to Mindbody without it",
  })
  @IsOptional()
  @IsBoolean({ message: MESSAGES.mindbodyAddAsBoolean })
  addToMindbody?: boolean;
}
