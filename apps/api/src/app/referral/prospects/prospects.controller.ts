import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { ApproveProspectDto } from './dto/approve-prospect.dto';
import { MemberRowDto } from '../../membership/members/dto/member-row.dto';
import { ListProspectsQueryDto } from './dto/list-prospects-query.dto';
import { FlaggedJoinsPageDto, ProspectsPageDto } from './dto/prospect-row.dto';
import { ProspectsService } from './prospects.service';

/**
 * Prospective members of the signed-in owner's business (docs/product.md#prospective-members Prospective Members): people who
 * joined through a referral link and wait for approval. 401 without a session; 404 for another
 * business's prospect; 409 when removing or approving a prospect an integration manages.
 */
@ApiTags('prospects')
@ApiCookieAuth('grove_access')
@Controller('prospects')
export class ProspectsController {
  constructor(private readonly prospects: ProspectsService) {}

  /** → 200 `Page<ProspectRow>` (oldest first). */
  @Get()
  @ApiOperation({ summary: 'List prospective members' })
  @ApiOkResponse({ type: ProspectsPageDto })
  list(
    @CurrentUser() user: AuthUser,
    @Query() query: ListProspectsQueryDto,
  ): Promise<ProspectsPageDto> {
    return this.prospects.list(sessionScope(user), query);
  }

  /**
   * → 200 `Page<FlaggedJoinRow>` (oldest first): joins answered 'Successfully registered!' but not
   * queued, each with its reasons ('already_member': the email is a member's of this business;
   * 'self_referral': the referrer's own), until dismissed. Only this business's.
   */
  @Get('flags')
  @ApiOperation({
    summary: 'List flagged joins (members or referrers joining through a referral link)',
  })
  @ApiOkResponse({ type: FlaggedJoinsPageDto })
  listFlags(
    @CurrentUser() user: AuthUser,
    @Query() query: ListProspectsQueryDto,
  ): Promise<FlaggedJoinsPageDto> {
    return this.prospects.listFlags(sessionScope(user), query);
  }

  /** → 204; 404 'Flagged join not found' (unknown, another business's or already dismissed). */
  @Delete('flags/:id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Dismiss a flagged join' })
  @ApiNoContentResponse()
  dismissFlag(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.prospects.dismissFlag(sessionScope(user), id);
  }

  /**
   * → 204; 404 'Prospective member not found' (unknown or another business's); 409
   * `MESSAGES.prospectManaged` when Mindbody manages the prospect, which stays listed (docs/product.md#prospective-members
   * 'Managed by {integration}' rows have no Remove; docs/product.md#roles).
   */
  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Remove a prospective member' })
  @ApiNoContentResponse()
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.prospects.remove(sessionScope(user), id);
  }

  /**
   * Body: the add-branch form (memberName, memberEmail, membershipPriceCents, discountCents: integer
   * cents; docs/product.md#validation) and `addToMindbody` (issue 33 item 4: the owner's 'Add to
   * Mindbody', a job adds or links the friend's Mindbody client afterwards).
   * → 201 MemberRow of the new tree (a branch of the referring member); 400; 404 prospect gone or
   * other business; 409 `MESSAGES.prospectManaged` when Mindbody manages the prospect (docs/product.md#prospective-members, docs/product.md#roles),
   * 409 managed referrer, or email already a member; 409 `MESSAGES.mindbodyAddNotConnected` with
   * `addToMindbody` when Mindbody is not connected (nothing approved).
   */
  @Post(':id/approve')
  @ApiOperation({ summary: 'Approve: add as a new tree and branch of the referring member' })
  @ApiCreatedResponse({ type: MemberRowDto })
  approve(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: ApproveProspectDto,
  ): Promise<MemberRowDto> {
    return this.prospects.approve(sessionScope(user), id, body);
  }
}
