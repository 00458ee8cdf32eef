import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { MessageReply } from '@grove/contracts';

/** A reply whose only content is the text to show (`MessageReply`). */
@ApiSchema({ name: 'MessageReply' })
export class MessageReplyDto implements MessageReply {
  @ApiProperty({ description: 'The text to show', example: 'Check your inbox.' })
  message!: string;
}

/** `GET /api/member-emails/unsubscribe/:token/status`: what the unsubscribe page shows. */
@ApiSchema({ name: 'UnsubscribeStatus' })
export class UnsubscribeStatusDto {
  @ApiProperty({ description: 'The business whose emails the link stops', example: 'Grove Gym' })
  businessName!: string;

  @ApiProperty({ description: 'True when the member already gets no member emails' })
  unsubscribed!: boolean;
}
