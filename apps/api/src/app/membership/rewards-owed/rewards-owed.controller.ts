import { Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { ReferrerRewardOwedDto, ReferrerRewardsOwedDto } from './dto/reward-owed.dto';
import { RewardsOwedService } from './rewards-owed.service';

/**
 * The rewards owed to referrers for their counting branches, for the owner to give by hand
 * (docs/product.md#referrer-reward 'Rewards to honour'). 401 without a session; only the
 * session's business (another business's reward is 404).
 */
@ApiTags('branches')
@ApiCookieAuth('grove_access')
@Controller('referrer-rewards')
export class RewardsOwedController {
  constructor(private readonly owed: RewardsOwedService) {}

  /**
   * → 200 `{ items: ReferrerRewardOwed[] }`: to honour first (oldest first), then capped, then
   * honoured (latest first); at most 200.
   */
  @Get()
  @ApiOperation({ summary: 'Rewards owed to referrers' })
  @ApiOkResponse({ type: ReferrerRewardsOwedDto })
  async list(@CurrentUser() user: AuthUser): Promise<ReferrerRewardsOwedDto> {
    return { items: await this.owed.list(sessionScope(user)) };
  }

  /**
   * Marks a reward honoured (idempotent; audited 'Reward honoured'). → 200 the reward with
   * `honouredAt`; 404 'This reward was not found' (unknown, not a uuid, or another business's);
   * 409 'This reward is past the cap: nothing is owed' (a capped one).
   */
  @Post(':id/honoured')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Mark a reward honoured' })
  @ApiOkResponse({ type: ReferrerRewardOwedDto })
  markHonoured(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<ReferrerRewardOwedDto> {
    return this.owed.markHonoured(sessionScope(user), id);
  }
}
