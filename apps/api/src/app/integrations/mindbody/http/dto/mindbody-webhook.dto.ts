import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MINDBODY_EVENT_IDS, type MindbodyEventId } from '@grove/api-mindbody';

/**
 * Body of `POST /api/mindbody/webhooks`: one Mindbody webhook delivery (`WebhookDelivery` of
 * `@grove/api-mindbody`), signed with `X-Mindbody-Signature: sha256=<base64 HMAC-SHA256 of the raw
 * body>`. The controller reads the raw body (the signature covers its bytes), so this class only
 * documents it; nothing validates against it.
 */
@ApiSchema({ name: 'MindbodyWebhookDelivery' })
export class MindbodyWebhookDeliveryDto {
  @ApiProperty({ description: 'Unique per delivery: a repeated one is answered 204 and ignored' })
  messageId!: string;

  @ApiProperty({ enum: MINDBODY_EVENT_IDS, enumName: 'MindbodyEventId' })
  eventId!: MindbodyEventId;

  @ApiProperty({ type: 'integer', example: 1 })
  eventSchemaVersion!: number;

  @ApiProperty({ description: 'ISO date-time: when the change happened at Mindbody' })
  eventInstanceOriginationDateTime!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "The event's fields; every event carries the Mindbody `siteId`",
  })
  eventData!: Record<string, unknown>;
}
