import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';

/** Query of `GET /api/referral-links/email/example`: which member to render it for (optional). */
export class ReferralEmailExampleQueryDto {
  @ApiPropertyOptional({
    description: 'A member of the business (members.id); default: the first by name with a link',
  })
  @IsOptional()
  @IsUUID('all', { message: 'memberId must be a member id' })
  memberId?: string;
}
