import { Controller, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { ErasureService } from './erasure.service';

/**
 * Erase a member's personal data on request (issue 34 item 6, docs/product.md#data-rights):
 * owners and managers (the role table). The member comes from the session's business; another
 * business's member answers 404.
 */
@ApiTags('members')
@ApiCookieAuth('grove_access')
@Controller('members')
export class ErasureController {
  constructor(private readonly erasure: ErasureService) {}

  /**
   * → 204: name 'Erased member', email gone, prices and branches kept. 404 'Member not found';
   * 409 already erased, or managed by Mindbody.
   */
  @Post(':id/erase')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Erase a member's personal data on request (prices and branches stay)" })
  @ApiNoContentResponse()
  async erase(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.erasure.erase(sessionScope(user), id);
  }
}
