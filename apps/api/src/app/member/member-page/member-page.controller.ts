import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Ip,
  Post,
  Res,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { MEMBER_PAGE_MESSAGES } from '@grove/contracts';
import { Public } from '../../platform/common/public.decorator';
import { memberScope } from '../../platform/database/business-scope';
import { CurrentMember, MemberSessionGuard } from '../member-auth/member-session.guard';
import type { MemberSessionRow } from '../member-auth/member-tokens.repository';
import { MessageReplyDto } from '../../platform/common/dto/message-reply.dto';
import { MemberLinkRequestDto, MemberSessionRequestDto } from './dto/member-page.dto';
import { MemberPageDto } from './dto/member-page-reply.dto';
import { MemberPageService } from './member-page.service';

/**
 * The member page API (issue 15), public for the owner's JWT guard: sign-in by magic link, the
 * page's data behind the member session cookie (`MemberSessionGuard`: an owner token opens
 * nothing here, and the member cookie is sent to `/api/member` only), and "send me a new link".
 */
@ApiTags('member')
@Public()
@Controller('member')
export class MemberPageController {
  constructor(private readonly pages: MemberPageService) {}

  /**
   * → 204 and the member cookie: the magic link's token is used (single use) and a member session
   * starts. 401 'This link has expired or has already been used…' (also for a malformed token).
   */
  @Post('session')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Sign in to the member page with a magic link token' })
  @ApiNoContentResponse({ description: 'Signed in: the member cookie is set' })
  async signIn(
    @Body() body: MemberSessionRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.pages.signIn(body.token, response);
  }

  /**
   * → 200 `MemberPage` (cents) of the session's member; 401 without a live member session. The
   * opening is remembered as a keyed digest of the client address (`FraudSignalsService`), so a
   * join through this member's link from the same address is flagged for the owner.
   */
  @Get('me')
  @UseGuards(MemberSessionGuard)
  @ApiOperation({ summary: "The signed-in member's page" })
  @ApiOkResponse({ type: MemberPageDto })
  me(
    @CurrentMember() member: MemberSessionRow,
    @Ip() clientAddress: string,
  ): Promise<MemberPageDto> {
    return this.pages.open(member, clientAddress);
  }

  /** → 200 image/svg+xml QR code of the member's referral link; 404 no live link; 401. */
  @Get('qr.svg')
  @UseGuards(MemberSessionGuard)
  @ApiOperation({ summary: "QR code (SVG) of the signed-in member's referral link" })
  @ApiOkResponse({ content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  async qr(@CurrentMember() member: MemberSessionRow): Promise<StreamableFile> {
    const svg = await this.pages.qrSvg(memberScope(member), member.memberId);
    return new StreamableFile(Buffer.from(svg, 'utf8'), { type: 'image/svg+xml' });
  }

  /** → 204: the member session is revoked and its cookie cleared; 401 without one. */
  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @UseGuards(MemberSessionGuard)
  @ApiOperation({ summary: 'Sign out of the member page' })
  @ApiNoContentResponse({ description: 'Signed out: the member cookie is cleared' })
  async signOut(
    @CurrentMember() member: MemberSessionRow,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.pages.signOut(member.businessId, member.sessionId, response);
  }

  /**
   * → 202 `{ message }`, the same for every valid email, member or not; each member with that
   * email is sent a new magic link. 400 'Not a valid email address'; 429 over
   * THROTTLE_MEMBER_LINK_LIMIT per client or THROTTLE_MEMBER_LINK_EMAIL_LIMIT per address.
   */
  @Post('magic-link')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Email a new member page link' })
  @ApiAcceptedResponse({ type: MessageReplyDto })
  async requestLink(
    @Body() body: MemberLinkRequestDto,
    @Ip() ip: string,
  ): Promise<MessageReplyDto> {
    await this.pages.requestLink(body.email, ip);
    return { message: MEMBER_PAGE_MESSAGES.linkRequested };
  }
}
