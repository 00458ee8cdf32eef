import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_SHARE_MESSAGE } from '@grove/contracts';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { AuditLog } from '../../platform/audit/audit-log';
import { ShareMessageSettingsDto } from './dto/share-message.dto';
import { ShareMessageRepository } from './share-message.repository';

/**
 * The message members share from the member page (Account Settings → 'Message members share';
 * docs/product.md#share-message). 401 without a session; only the session's business.
 */
@ApiTags('settings')
@ApiCookieAuth('grove_access')
@Controller('settings/share-message')
export class ShareMessageController {
  constructor(
    private readonly messages: ShareMessageRepository,
    private readonly audit: AuditLog,
  ) {}

  /** → 200 `{ message }`: the owner's message, or the default until they write one. */
  @Get()
  @ApiOperation({ summary: 'The message members share with friends' })
  @ApiOkResponse({ type: ShareMessageSettingsDto })
  async get(@CurrentUser() user: AuthUser): Promise<ShareMessageSettingsDto> {
    return { message: (await this.messages.get(sessionScope(user))) ?? DEFAULT_SHARE_MESSAGE };
  }

  /**
   * Body `{ message }` (≤ 500 characters, plain text, `{link}` required; only `{firstName}`,
   * `{gym}`, `{link}`). → 200 the saved message (trimmed); 400 with the rule's message
   * (`SHARE_MESSAGE_MESSAGES`, `fieldErrors.message`), nothing saved. A change is recorded in
   * the audit log (docs/product.md#audit-log).
   */
  @Put()
  @ApiOperation({ summary: 'Save the message members share with friends' })
  @ApiOkResponse({ type: ShareMessageSettingsDto })
  async put(
    @CurrentUser() user: AuthUser,
    @Body() body: ShareMessageSettingsDto,
  ): Promise<ShareMessageSettingsDto> {
    const scope = sessionScope(user);
    return this.audit.changeSetting(
      scope,
      'Message members share',
      async (manager) => ({
        message: (await this.messages.get(scope, manager)) ?? DEFAULT_SHARE_MESSAGE,
      }),
      async (manager) => ({
        message:
          (await this.messages.save(scope, manager, body.message.trim())) ?? DEFAULT_SHARE_MESSAGE,
      }),
    );
  }
}
