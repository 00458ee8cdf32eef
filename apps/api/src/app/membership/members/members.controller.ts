import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
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
import { CreateMemberDto, MemberFieldsDto } from './dto/create-member.dto';
import { ListMembersQueryDto } from './dto/list-members-query.dto';
import { MemberRowDto, MembersPageDto } from './dto/member-row.dto';
import { UpdateMemberDto } from './dto/update-member.dto';
import { sessionScope } from '../../platform/database/business-scope';
import { MembersService } from './members.service';

/**
 * Trees and branches of the signed-in owner's business (docs/product.md#branches Branches screen). The business
 * always comes from the session. Errors: 400 validation (docs/product.md#validation messages), 401 no session,
 * 404 not in this business, 409 duplicate email key or Mindbody-managed member.
 */
@ApiTags('members')
@ApiCookieAuth('grove_access')
@Controller('members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  /**
   * → 200 `MembersPage` (sort memberName|memberEmail|branches|createdAt|newPriceCents|status,
   * search name/email, filters status|managed|hasLink|referredBy); 400 for a value outside a
   * filter's list. Scoped to the session's business: another business's member id as `referredBy`
   * finds nothing.
   */
  @Get()
  @ApiOperation({ summary: 'List trees with their branch counts and prices (cents)' })
  @ApiOkResponse({ type: MembersPageDto })
  list(
    @CurrentUser() user: AuthUser,
    @Query() query: ListMembersQueryDto,
  ): Promise<MembersPageDto> {
    return this.members.list(sessionScope(user), query);
  }

  /** → 200 MemberRow; 404 'Member not found'. */
  @Get(':id')
  @ApiOperation({ summary: 'One member' })
  @ApiOkResponse({ type: MemberRowDto })
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<MemberRowDto> {
    return this.members.get(sessionScope(user), id);
  }

  /** → 201 MemberRow; 400, 404 (referring member), 409 duplicate / managed referrer. */
  @Post()
  @ApiOperation({ summary: 'Add a tree (optionally as a branch of referringMemberId)' })
  @ApiCreatedResponse({ type: MemberRowDto })
  create(@CurrentUser() user: AuthUser, @Body() body: CreateMemberDto): Promise<MemberRowDto> {
    return this.members.create(sessionScope(user), body);
  }

  /** → 201 MemberRow of the new branch (also a tree); 404; 409 managed tree or duplicate. */
  @Post(':id/branches')
  @ApiOperation({ summary: 'Add a branch to a tree (the branch is also a new tree)' })
  @ApiCreatedResponse({ type: MemberRowDto })
  addBranch(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: MemberFieldsDto,
  ): Promise<MemberRowDto> {
    return this.members.addBranch(sessionScope(user), id, body);
  }

  /** → 204; 404 tree not found or not its branch; 409 managed tree. */
  @Delete(':id/branches/:branchId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Detach a branch from its tree (it stays a tree)' })
  @ApiNoContentResponse()
  removeBranch(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('branchId') branchId: string,
  ): Promise<void> {
    return this.members.removeBranch(sessionScope(user), id, branchId);
  }

  /** → 200 MemberRow; 400; 404; 409 managed or duplicate email key. */
  @Patch(':id')
  @ApiOperation({ summary: 'Change a member' })
  @ApiOkResponse({ type: MemberRowDto })
  update(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateMemberDto,
  ): Promise<MemberRowDto> {
    return this.members.update(sessionScope(user), id, body);
  }

  /** → 204; 404; 409 managed. */
  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Remove a tree (its branches become trees)' })
  @ApiNoContentResponse()
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.members.remove(sessionScope(user), id);
  }
}
