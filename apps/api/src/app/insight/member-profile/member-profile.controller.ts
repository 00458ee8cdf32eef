import { Controller, Get, Param } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { MemberProfileService } from './member-profile.service';
import { MemberProfileDto } from './dto/member-profile.dto';

/**
 * The member profile of the signed-in owner's business (issue 14 part 3). 401 without a session;
 * 404 'Member not found' for an unknown id or another business's member.
 */
@ApiTags('members')
@ApiCookieAuth('grove_access')
@Controller('members')
export class MemberProfileController {
  constructor(private readonly profiles: MemberProfileService) {}

  /** → 200 `MemberProfile`; 404. */
  @Get(':id/profile')
  @ApiOkResponse({ type: MemberProfileDto })
  @ApiOperation({
    summary: "A member's profile: details, referral tree, price ledger, link, prospects",
  })
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<MemberProfileDto> {
    return this.profiles.get(sessionScope(user), id);
  }
}
