import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { BranchSettingsDto, UpdateBranchSettingsDto } from './dto/branch-settings.dto';
import { BranchQualificationService } from './branch-qualification.service';

/**
 * The signed-in owner's rule for when a branch counts (docs/product.md#branch-qualification). 401
 * without a session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/branches')
export class BranchSettingsController {
  constructor(private readonly branches: BranchQualificationService) {}

  /** → 200 `BranchSettings` (`{ rule: 'approval', days: null }` by default). */
  @Get()
  @ApiOperation({ summary: 'When a new branch starts lowering its referrer’s price' })
  @ApiOkResponse({ type: BranchSettingsDto })
  get(@CurrentUser() user: AuthUser): Promise<BranchSettingsDto> {
    return this.branches.settings(sessionScope(user));
  }

  /**
   * Body `{ rule, days? }`. → 200 the saved rule, applied at once to branches still pending;
   * 400 'Choose when a branch starts counting' or 'Days as a member must be a whole number from 1
   * to 365', nothing saved.
   */
  @Put()
  @ApiOperation({ summary: 'Choose when a new branch starts lowering its referrer’s price' })
  @ApiOkResponse({ type: BranchSettingsDto })
  put(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateBranchSettingsDto,
  ): Promise<BranchSettingsDto> {
    return this.branches.saveSettings(sessionScope(user), {
      rule: body.rule,
      days: body.rule === 'days' ? body.days : null,
    });
  }
}
