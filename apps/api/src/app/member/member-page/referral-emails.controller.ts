import { Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { ReferralEmailExampleQueryDto } from './dto/referral-email-example-query.dto';
import {
  ReferralEmailExampleDto,
  ReferralEmailPreviewDto,
  ReferralEmailResultDto,
  ReferralEmailRunDto,
} from './dto/referral-email.dto';
import { ReferralEmailsService } from './referral-emails.service';

/**
 * "Your referral link" from the Referral Links screen (issue 15), for the signed-in owner's
 * members only. 401 without a session.
 */
@ApiTags('referrals')
@ApiCookieAuth('grove_access')
@Controller()
export class ReferralEmailsController {
  constructor(private readonly referralEmails: ReferralEmailsService) {}

  /**
   * → 202 `{ queued: 1, skipped: 0 }`; 404 no such member of the business, or no live link; 429
   * emailed within the hour.
   */
  @Post('members/:memberId/referral-link/email')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Email a member their referral link and member page link' })
  @ApiAcceptedResponse({ type: ReferralEmailResultDto })
  sendOne(
    @CurrentUser() user: AuthUser,
    @Param('memberId') memberId: string,
  ): Promise<ReferralEmailResultDto> {
    return this.referralEmails.sendOne(sessionScope(user), memberId);
  }

  /**
   * → 200 `ReferralEmailPreview` `{ members, alreadyEmailed }`: how many of the business's members
   * 'Email all links' would email now, and how many it would skip (emailed within the hour).
   * Counts only, nothing sent; 401 without a session.
   */
  @Get('referral-links/email/preview')
  @ApiOperation({ summary: "How many members 'Email all links' would email now" })
  @ApiOkResponse({ type: ReferralEmailPreviewDto })
  emailAllPreview(@CurrentUser() user: AuthUser): Promise<ReferralEmailPreviewDto> {
    return this.referralEmails.preview(sessionScope(user));
  }

  /**
   * → 200 `ReferralEmailExample` `{ memberId, memberName, subject, html, text }`: the "Your
   * referral link" email a real member of the business would get from 'Email all links' (the
   * first by name with a live link, or `?memberId=`), rendered by the template the send uses;
   * nothing sent, no token issued. 400 malformed `memberId`; 404 that member is not the
   * business's or has no live link, or no member has a link; 401 without a session.
   */
  @Get('referral-links/email/example')
  @ApiOperation({ summary: "One example email of 'Email all links'" })
  @ApiOkResponse({ type: ReferralEmailExampleDto })
  emailAllExample(
    @CurrentUser() user: AuthUser,
    @Query() query: ReferralEmailExampleQueryDto,
  ): Promise<ReferralEmailExampleDto> {
    return this.referralEmails.example(sessionScope(user), query.memberId);
  }

  /** → 200 `ReferralEmailRun`: the latest 'Email all links' run ('idle' when none). */
  @Get('referral-links/email')
  @ApiOperation({ summary: "Progress of 'Email all links'" })
  @ApiOkResponse({ type: ReferralEmailRunDto })
  emailAllStatus(@CurrentUser() user: AuthUser): Promise<ReferralEmailRunDto> {
    return this.referralEmails.status(sessionScope(user));
  }

  /**
   * → 202 `ReferralEmailRun`: starts a background run emailing every member with a live link not
   * emailed within the hour (idempotent: a run already going is returned as it is).
   */
  @Post('referral-links/email')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Email every member with a link their referral link' })
  @ApiAcceptedResponse({ type: ReferralEmailRunDto })
  sendAll(@CurrentUser() user: AuthUser): Promise<ReferralEmailRunDto> {
    return this.referralEmails.startAll(sessionScope(user));
  }
}
