import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  DEFAULT_SHARE_MESSAGE,
  SHARE_MESSAGE_MAX_LENGTH,
  validateShareMessage,
  type ShareMessageSettings,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * `PUT /api/settings/share-message` body, and the reply of `GET` and `PUT`
 * (docs/product.md#share-message): the message members share, placeholders `{firstName}`,
 * `{gym}`, `{link}` unfilled. Checked by contracts' `validateShareMessage` (text, 1–500
 * characters after trimming, plain text with line breaks, only those placeholders, `{link}`
 * present): else 400 with its message, nothing saved.
 */
@ApiSchema({ name: 'ShareMessageSettings' })
@ValidatedBy(validateShareMessage)
export class ShareMessageSettingsDto implements ShareMessageSettings {
  @ApiProperty({
    example: DEFAULT_SHARE_MESSAGE,
    maxLength: SHARE_MESSAGE_MAX_LENGTH,
    description:
      'The share message; {firstName}, {gym}, {offer} and {link} are filled in per member',
  })
  @Allow()
  message!: string;
}
