import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { AccountClosureService } from './account-closure.service';
import { AccountClosureDto, CloseAccountDto } from './dto/account-closure.dto';

/**
 * Closing the signed-in owner's business (issue 34 item 6, docs/product.md#data-rights): owners
 * only (the role table); the business always comes from the session.
 */
@ApiTags('account')
@ApiCookieAuth('grove_access')
@Controller('account/closure')
export class AccountClosureController {
  constructor(private readonly closure: AccountClosureService) {}

  /** → 200 `AccountClosure` `{ closingAt }` (null while the business stays open). */
  @Get()
  @ApiOperation({ summary: 'Whether the business is closing, and when it is deleted' })
  @ApiOkResponse({ type: AccountClosureDto })
  status(@CurrentUser() user: AuthUser): Promise<AccountClosureDto> {
    return this.closure.status(sessionScope(user));
  }

  /**
   * Body `{ password }` → 200 `AccountClosure`: everything is deleted in 30 days; the rest of the
   * staff is signed out, Grove's subscription stops renewing, an email confirms. 400 'That
   * password is not right.'; 409 'Your account is already closing.'; 503 Stripe did not answer
   * (nothing changed).
   */
  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Close the business: everything is deleted in 30 days' })
  @ApiOkResponse({ type: AccountClosureDto })
  close(@CurrentUser() user: AuthUser, @Body() body: CloseAccountDto): Promise<AccountClosureDto> {
    return this.closure.close(sessionScope(user), user, body.password);
  }

  /** → 204: the business stays open. 409 'Your account is not closing.'; 503 (nothing changed). */
  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Cancel closing the business' })
  @ApiNoContentResponse()
  async cancel(@CurrentUser() user: AuthUser): Promise<void> {
    await this.closure.cancel(sessionScope(user), user);
  }
}
