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
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../platform/common/auth-user';
import { CreateReferralLinkDto, ListReferralLinksQueryDto } from './dto/referral-link.dto';
import { ReferralLinkDto, ReferralLinkRowsPageDto } from './dto/referral-link-reply.dto';
import { sessionScope } from '../../platform/database/business-scope';
import { ReferralsService } from './referrals.service';

/**
 * Referral links of the signed-in owner's members (docs/product.md#referral-links Referral Links, docs/product.md#calls generateReferralLink
 * and removeReferral). Link URLs are `<PUBLIC_ORIGIN>/referral/<code>` (never a request's Host).
 * 401 without a session; 404 for a member of another business.
 */
@ApiTags('referrals')
@ApiCookieAuth('grove_access')
@Controller()
export class ReferralLinksController {
  constructor(private readonly referrals: ReferralsService) {}

  /** → 200 `Page<ReferralLinkRow>`: every member (oldest first) with its live link or null. */
  @Get('referral-links')
  @ApiOperation({ summary: 'List members with their live referral link' })
  @ApiOkResponse({ type: ReferralLinkRowsPageDto })
  list(
    @CurrentUser() user: AuthUser,
    @Query() query: ListReferralLinksQueryDto,
  ): Promise<ReferralLinkRowsPageDto> {
    return this.referrals.list(sessionScope(user), query);
  }

  /** → 201 ReferralLink (the live one when it exists: idempotent); 400 expiresInDays; 404. */
  @Post('members/:memberId/referral-link')
  @ApiOperation({ summary: "Create the member's referral link (returns the live one if any)" })
  @ApiBody({ type: CreateReferralLinkDto, required: false })
  @ApiCreatedResponse({ type: ReferralLinkDto })
  create(
    @CurrentUser() user: AuthUser,
    @Param('memberId') memberId: string,
    @Body() body: CreateReferralLinkDto,
  ): Promise<ReferralLinkDto> {
    return this.referrals.create(sessionScope(user), memberId, body);
  }

  /** → 201 new ReferralLink; the old code stops working at once; 404. */
  @Post('members/:memberId/referral-link/rotate')
  @ApiOperation({ summary: "Replace the member's referral link with a new code" })
  @ApiBody({ type: CreateReferralLinkDto, required: false })
  @ApiCreatedResponse({ type: ReferralLinkDto })
  rotate(
    @CurrentUser() user: AuthUser,
    @Param('memberId') memberId: string,
    @Body() body: CreateReferralLinkDto,
  ): Promise<ReferralLinkDto> {
    return this.referrals.rotate(sessionScope(user), memberId, body);
  }

  /**
   * → 200 image/svg+xml QR code of the live link, downloaded as `grove-referral-<code>.svg` (one
   * file per member's link, not one name for all); 404 no member or no live link.
   */
  @Get('members/:memberId/referral-link/qr.svg')
  @ApiOperation({ summary: "QR code (SVG) of the member's referral link" })
  @ApiOkResponse({ content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  async qrSvg(
    @CurrentUser() user: AuthUser,
    @Param('memberId') memberId: string,
  ): Promise<StreamableFile> {
    const { image, code } = await this.referrals.qrCode(sessionScope(user), memberId, 'svg');
    return new StreamableFile(image, {
      type: 'image/svg+xml',
      disposition: `attachment; filename="grove-referral-${code}.svg"`,
    });
  }

  /**
   * → 200 image/png QR code (1024 px) of the live link, downloaded as `grove-referral-<code>.png`;
   * 404 no member or no live link.
   */
  @Get('members/:memberId/referral-link/qr.png')
  @ApiOperation({ summary: "QR code (PNG) of the member's referral link" })
  @ApiOkResponse({ content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  async qrPng(
    @CurrentUser() user: AuthUser,
    @Param('memberId') memberId: string,
  ): Promise<StreamableFile> {
    const { image, code } = await this.referrals.qrCode(sessionScope(user), memberId, 'png');
    return new StreamableFile(image, {
      type: 'image/png',
      disposition: `attachment; filename="grove-referral-${code}.png"`,
    });
  }

  /** → 204 (also when the member had no link); 404. */
  @Delete('members/:memberId/referral-link')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Revoke the member's referral link" })
  @ApiNoContentResponse()
  revoke(@CurrentUser() user: AuthUser, @Param('memberId') memberId: string): Promise<void> {
    return this.referrals.revoke(sessionScope(user), memberId);
  }
}
