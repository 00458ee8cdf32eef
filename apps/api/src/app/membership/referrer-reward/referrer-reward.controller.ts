import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { ReferrerRewardDto } from './dto/referrer-reward.dto';
import { ReferrerRewardService } from './referrer-reward.service';

/**
 * The referrer's reward and its cap (Account Settings → Members & rewards, 'Reward for referrers';
 * docs/product.md#referrer-reward). 401 without a session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/referrer-reward')
export class ReferrerRewardController {
  constructor(private readonly rewards: ReferrerRewardService) {}

  /** → 200 `ReferrerReward`: the business's reward (`kind: 'discount'`, `capPercent: 100` until set). */
  @Get()
  @ApiOperation({ summary: "The referrer's reward per counting branch and its cap" })
  @ApiOkResponse({ type: ReferrerRewardDto })
  get(@CurrentUser() user: AuthUser): Promise<ReferrerRewardDto> {
    return this.rewards.get(sessionScope(user));
  }

  /**
   * Body `ReferrerReward` (`kind` and that kind's fields: `creditCents` integer cents, `freeCount`
   * and `freeUnit`, `giftText`; `capPercent` 1–100; `yearlyCapCents` integer cents or null). → 200
   * the saved reward (other kinds' fields null, `giftText` trimmed); members whose price it moves
   * get a ledger line 'Referral reward changed'; the change is in the audit log. 400 with the
   * rule's message (`REFERRER_REWARD_MESSAGES`, `fieldErrors`), nothing saved.
   */
  @Put()
  @ApiOperation({ summary: "Save the referrer's reward and its cap" })
  @ApiOkResponse({ type: ReferrerRewardDto })
  put(@CurrentUser() user: AuthUser, @Body() body: ReferrerRewardDto): Promise<ReferrerRewardDto> {
    return this.rewards.save(sessionScope(user), body);
  }
}
