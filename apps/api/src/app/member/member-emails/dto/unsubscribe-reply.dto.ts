import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** `GET /api/member-emails/unsubscribe/:token/status`: what the unsubscribe page shows. */
@ApiSchema({ name: 'UnsubscribeStatus' })
export class UnsubscribeStatusDto {
  @ApiProperty({ description: 'The business whose emails the link stops', example: 'Grove Gym' })
  businessName!: string;

  @ApiProperty({ description: 'True when the member already gets no member emails' })
  unsubscribed!: boolean;
}
