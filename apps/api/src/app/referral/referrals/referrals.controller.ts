import { Body, Controller, Get, Ip, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../platform/common/public.decorator';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { JoinReferralDto } from './dto/join-referral.dto';
import { JoinReferralReplyDto, ReferralInfoDto } from './dto/referral-link-reply.dto';
import { ReferralsService } from './referrals.service';

/**
 * The public referral join page's API (docs/product.md#referral-join Referral join page, docs/product.md#calls `/api/referral`). No
 * session: the business and the referring member come only from the code. Unknown, revoked or
 * expired codes → 404 'Something went wrong! Please try again. If this continues to occur, the
 * link may be expired.'
 */
@ApiTags('referrals')
@Public()
@Controller('referrals')
export class ReferralsController {
  constructor(private readonly referrals: ReferralsService) {}

  /**
   * → 200 ReferralInfo `{ businessName, referrerFirstName }`; 404. Counts a join page visit once
   * per client per link per UTC day (`ReferralsService.info`).
   */
  @Get(':code')
  @ApiOperation({ summary: 'What the join page shows for a referral code' })
  @ApiOkResponse({ type: ReferralInfoDto })
  info(@Param('code') code: string, @Ip() clientAddress: string): Promise<ReferralInfoDto> {
    return this.referrals.info(code, clientAddress);
  }

  /**
   * Body `{ name, email, website? }` (`website` is a honeypot). → 201 `{ message: 'Successfully
   * registered!' }` for every friend of a live code, byte-identical whether the email is a
   * stranger's (queued), a member's of that business or the referrer's own (both flagged for the
   * owner, not queued), one with fraud signals (queued with flags), a repeat or a filled
   * honeypot; 400 'Not a valid name' / 'Not a valid email
   * address'; 404; 429 over THROTTLE_REFERRAL_LIMIT per client per minute.
   */
  @Post(':code/join')
  @ThrottledBy('referral')
  @ApiOperation({ summary: 'Join through a referral code: queue as a prospective member' })
  @ApiCreatedResponse({ type: JoinReferralReplyDto })
  join(
    @Param('code') code: string,
    @Body() body: JoinReferralDto,
    @Ip() clientAddress: string,
  ): Promise<JoinReferralReplyDto> {
    return this.referrals.join(code, body, clientAddress);
  }
}
