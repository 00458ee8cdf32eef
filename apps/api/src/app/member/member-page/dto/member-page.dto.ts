import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches } from 'class-validator';
import {
  isValidEmail,
  MEMBER_PAGE_MESSAGES,
  MESSAGES,
  type MemberLinkRequest,
  type MemberSessionRequest,
} from '@grove/contracts';
import { FollowsRule, trimString } from '../../../platform/common/contract-rule.decorator';

/** `POST /api/member/magic-link` body: the email to send a new member page link to. */
export class MemberLinkRequestDto implements MemberLinkRequest {
  @ApiProperty({ example: 'ana@example.com' })
  @Transform(trimString)
  @FollowsRule(isValidEmail, MESSAGES.invalidEmail)
  email!: string;
}

/** `POST /api/member/session` body: the magic link's token (43 base64url characters). */
export class MemberSessionRequestDto implements MemberSessionRequest {
  @ApiProperty({ description: 'The token after `#token=` in the magic link' })
  @IsString({ message: MEMBER_PAGE_MESSAGES.linkExpired })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: MEMBER_PAGE_MESSAGES.linkExpired })
  token!: string;
}
