import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { MessageReply } from '@grove/contracts';

/** Reply of the public forms, the issue form, a password change or reset request: the text to show. */
@ApiSchema({ name: 'MessageReply' })
export class MessageReplyDto implements MessageReply {
  @ApiProperty({
    description: 'The text to show the user',
    example: 'Thanks! We will be in touch.',
  })
  message!: string;
}
