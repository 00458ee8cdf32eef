import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { MemberRowDto } from './dto/member-row.dto';
import { MatchReferralDto, ReferralsToMatchDto } from './dto/referrals-to-match.dto';
import { MembersService } from './members.service';

/**
 * Referrals to match (issue 33 item 4, docs/product.md#referrals-to-match): members added at the
 * desk whose "referred by" matched no member ("Jenny (spin class)"), waiting for someone to pick
 * the member it meant (the member then becomes that member's branch) or to dismiss it. Scoped to
 * the session's business: another business's member answers 404 'Member not found'.
 */
@ApiTags('members')
@ApiCookieAuth('grove_access')
@Controller('referrals-to-match')
export class ReferralsToMatchController {
  constructor(private readonly members: MembersService) {}

  /** → 200 `ReferralsToMatch`: the oldest 100 waiting, and how many wait in all. */
  @Get()
  @ApiOperation({ summary: 'Members whose "referred by" waits to be matched to a member' })
  @ApiOkResponse({ type: ReferralsToMatchDto })
  list(@CurrentUser() user: AuthUser): Promise<ReferralsToMatchDto> {
    return this.members.referralsToMatch(sessionScope(user));
  }

  /**
   * → 200 the member's row, now a branch of `referrerId` (the referrer's price drops as for any
   * branch); 400 own referrer; 404 either not in the business; 409 already a branch, a loop, or a
   * Mindbody-managed referrer; 402 while Grove is paused.
   */
  @Post(':memberId/match')
  @ApiOperation({ summary: 'Match a waiting referral: the member becomes the referrer’s branch' })
  @ApiOkResponse({ type: MemberRowDto })
  @HttpCode(HttpStatus.OK)
  match(
    @CurrentUser() user: AuthUser,
    @Param('memberId') memberId: string,
    @Body() body: MatchReferralDto,
  ): Promise<MemberRowDto> {
    return this.members.attachBranch(sessionScope(user), body.referrerId, memberId);
  }

  /** → 204: the note is cleared, the member stays a tree of no one; 404 not waiting in this business. */
  @Post(':memberId/dismiss')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Dismiss a waiting referral (the member stays, referred by no one)' })
  @ApiNoContentResponse()
  dismiss(@CurrentUser() user: AuthUser, @Param('memberId') memberId: string): Promise<void> {
    return this.members.dismissReferral(sessionScope(user), memberId);
  }
}
