import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/**
 * Whether Grove emails the business's members now, and what waits (docs/product.md#verified-senders):
 * the banner in the dashboard reads it.
 */
@ApiSchema({ name: 'EmailSending' })
export class EmailSendingDto {
  @ApiProperty({ type: Boolean, description: 'An owner verified their email' })
  senderVerified!: boolean;

  @ApiProperty({ type: Number, description: 'Member emails waiting for the verification' })
  waitingForVerification!: number;

  @ApiProperty({ type: Number, description: "Member emails waiting for tomorrow's cap (UTC)" })
  waitingForTomorrow!: number;

  @ApiProperty({ type: Number, description: 'Member emails delivered today (UTC)' })
  deliveredToday!: number;

  @ApiProperty({ type: Number, description: 'Member emails the business may send per UTC day' })
  dailyCap!: number;
}
