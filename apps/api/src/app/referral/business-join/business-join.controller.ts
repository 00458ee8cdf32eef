import { Body, Controller, Get, HttpCode, Post, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { sessionScope } from '../../platform/database/business-scope';
import { BusinessJoinLinkDto, NewJoinLinkDto } from './dto/business-join.dto';
import { BusinessJoinService } from './business-join.service';

/**
 * The owner's view of the business's own join page (issue 33 item 4,
 * docs/product.md#business-join): its link and QR code, for Account Settings → Sharing, and a
 * new link replacing it.
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

  /**
   * Body `{ confirm: true }` → 200 `{ url }`: the business's join page gets a new code; the old
   * link and the QR codes printed from it stop working at once (the old `/join/<code>` answers
   * 404, the failure page, as an unknown code). Recorded in the audit log ('Join page link').
   * 400 'Confirm that the current link and its printed QR codes stop working' without
   * `confirm: true` (nothing changed). Owners and managers (the role table).
   */
  @Post('new-link')
  @HttpCode(200)
  @ApiOperation({ summary: "Replace the business's join page link (the old one stops working)" })
  @ApiOkResponse({ type: BusinessJoinLinkDto })
  newLink(
    @CurrentUser() user: AuthUser,
    @Body() _body: NewJoinLinkDto,
  ): Promise<BusinessJoinLinkDto> {
    return this.joins.replaceLink(sessionScope(user));
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
