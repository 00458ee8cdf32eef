import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsString, Matches } from 'class-validator';
import {
  MEMBER_PAGE_MESSAGES,
  validateMemberLinkRequest,
  type MemberLinkRequest,
  type MemberSessionRequest,
} from '@grove/contracts';
import { trimString } from '../../../platform/common/contract-rule.decorator';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * `POST /api/member/magic-link` body: the email to send a new member page link to (contracts'
 * `validateMemberLinkRequest`: 'Not a valid email address').
 */
@ValidatedBy(validateMemberLinkRequest)
export class MemberLinkRequestDto implements MemberLinkRequest {
  @ApiProperty({ example: 'ana@example.com' })
  @Allow()
  @Transform(trimString)
  email!: string;
}

/** `POST /api/member/session` body: the magic link's token (43 base64url characters). */
export class MemberSessionRequestDto implements MemberSessionRequest {
  @ApiProperty({ description: 'The token after `#token=` in the magic link' })
  @IsString({ message: MEMBER_PAGE_MESSAGES.linkExpired })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: MEMBER_PAGE_MESSAGES.linkExpired })
  token!: string;
}
