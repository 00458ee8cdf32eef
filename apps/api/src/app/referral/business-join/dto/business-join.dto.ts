import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  NAME_MAX_LENGTH,
  validateBusinessJoin,
  validateNewJoinLink,
  type BusinessJoinInput,
  type NewJoinLinkInput,
} from '@grove/contracts';
import { trimString } from '../../../platform/common/contract-rule.decorator';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * The form of the business's join page, `POST /join/:code` (urlencoded;
 * docs/product.md#business-join), checked by contracts' `validateBusinessJoin` ('Not a valid
 * name', 'Not a valid email address', 'Write who referred you in plain text, at most 100
 * characters').
 */
@ValidatedBy(validateBusinessJoin)
export class BusinessJoinDto implements BusinessJoinInput {
  @ApiProperty({ example: 'Zoë D’Arcy-Nguyễn', maxLength: NAME_MAX_LENGTH })
  @Allow()
  @Transform(trimString)
  name!: string;

  @ApiProperty({ example: 'zoe@example.com' })
  @Allow()
  @Transform(trimString)
  email!: string;

  @ApiPropertyOptional({
    example: 'Jenny (spin class)',
    description: 'Who referred you? (free text, at most 100 characters)',
  })
  @Allow()
  @Transform(trimString)
  referredBy?: string;

  /** Honeypot: hidden on the page, so only bots fill it; a filled one is answered as success and dropped. */
  @ApiPropertyOptional({ description: 'Leave empty (hidden honeypot field)' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  website?: string;
}

/** `GET /api/join-page`: the business's own join page (a link without a member). */
@ApiSchema({ name: 'BusinessJoinLink' })
export class BusinessJoinLinkDto {
  @ApiProperty({ example: 'https://grove.example.com/join/3f1c2b9a0d7e4c55a1b2c3d4e5f60718' })
  url!: string;
}

/**
 * Body of `POST /api/join-page/new-link`: `{ confirm: true }`, the owner's yes to 'Replace your
 * join page link?' (the old link and its printed QR codes stop working). Anything else → 400
 * 'Confirm that the current link and its printed QR codes stop working' (contracts'
 * `validateNewJoinLink`).
 */
@ValidatedBy(validateNewJoinLink)
export class NewJoinLinkDto implements NewJoinLinkInput {
  @ApiProperty({ enum: [true], description: 'Must be true: the old link stops working' })
  @Allow()
  confirm!: true;
}
