import { Controller, Get, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { BusinessJoinLinkDto } from './dto/business-join.dto';
import { BusinessJoinService } from './business-join.service';

/**
 * The owner's view of the business's own join page (issue 33 item 4,
 * docs/product.md#business-join): its link and QR code, for Account Settings → Sharing.
 */
@ApiTags('referrals')
@Controller('join-page')
export class BusinessJoinController {
  constructor(private readonly joins: BusinessJoinService) {}

  /** → 200 `{ url }`: the business's join page (`https://…/join/<code>`). */
  @Get()
  @ApiOperation({ summary: "The business's own join page link (no member)" })
  @ApiOkResponse({ type: BusinessJoinLinkDto })
  link(@CurrentUser() user: AuthUser): Promise<BusinessJoinLinkDto> {
    return this.joins.link(sessionScope(user));
  }

  /** → 200 image/svg+xml QR code of the join page, downloaded as `grove-join-page.svg`. */
  @Get('qr.svg')
  @ApiOperation({ summary: "QR code (SVG) of the business's join page" })
  @ApiOkResponse({ content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  async qrSvg(@CurrentUser() user: AuthUser): Promise<StreamableFile> {
    return new StreamableFile(await this.joins.qrSvg(sessionScope(user)), {
      type: 'image/svg+xml',
      disposition: 'attachment; filename="grove-join-page.svg"',
    });
  }
}
