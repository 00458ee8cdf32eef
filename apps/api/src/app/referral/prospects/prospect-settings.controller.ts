import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { AuditLog } from '../../platform/audit/audit-log';
import { ProspectSettingsDto } from './dto/prospect-settings.dto';
import { ProspectSettingsRepository } from './prospect-settings.repository';

/**
 * The signed-in owner's prospect settings (Prospective Members, 'Approve automatically'). 401
 * without a session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/prospects')
export class ProspectSettingsController {
  constructor(
    private readonly settings: ProspectSettingsRepository,
    private readonly audit: AuditLog,
  ) {}

  /** → 200 `ProspectSettings` (`autoApprove` off by default). */
  @Get()
  @ApiOperation({ summary: 'Whether prospects who pass every check are approved automatically' })
  @ApiOkResponse({ type: ProspectSettingsDto })
  get(@CurrentUser() user: AuthUser): Promise<ProspectSettingsDto> {
    return this.settings.get(sessionScope(user));
  }

  /** Body `{ autoApprove }` (JSON boolean). → 200 the saved settings; 400 'Automatic approval must be on or off'. */
  @Put()
  @ApiOperation({ summary: 'Turn automatic approval of prospects on or off' })
  @ApiOkResponse({ type: ProspectSettingsDto })
  put(
    @CurrentUser() user: AuthUser,
    @Body() body: ProspectSettingsDto,
  ): Promise<ProspectSettingsDto> {
    const scope = sessionScope(user);
    return this.audit.changeSetting(
      scope,
      'Approve friends automatically',
      (manager) => this.settings.get(scope, manager),
      (manager) => this.settings.update(scope, manager, { autoApprove: body.autoApprove }),
    );
  }
}
