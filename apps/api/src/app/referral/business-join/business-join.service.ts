import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import {
  businessJoinUrl,
  emailKey,
  localeFormats,
  MESSAGES,
  welcomeOfferWording,
} from '@grove/contracts';
import { AuditLog } from '../../platform/audit/audit-log';
import { AppConfig } from '../../platform/config/app-config';
import type { BusinessScope } from '../../platform/database/business-scope';
import { FraudSignalsService } from '../fraud/fraud-signals.service';
import { ReferralLinkNotFoundException } from '../referrals/referrals.exceptions';
import { BusinessJoinRepository, type BusinessJoinPageInfo } from './business-join.repository';
import type { BusinessJoinDto } from './dto/business-join.dto';

/** What a join code must look like before the database is asked (the migration's 32 hex characters). */
const JOIN_CODE_SHAPE = /^[0-9a-f]{32}$/;

/** What the business's join page shows: its name and the friend's welcome offer, worded. */
export interface BusinessJoinPage {
  businessName: string;
  welcomeOffer: string | null;
}

function pageOf(info: BusinessJoinPageInfo): BusinessJoinPage {
  return {
    businessName: info.businessName,
    welcomeOffer: welcomeOfferWording(info.welcomeOffer, localeFormats(info.businessLocale)),
  };
}

/**
 * The business's own join page (issue 33 item 4, docs/product.md#business-join): a link without a
 * member, `/join/<code>`, that asks "Who referred you?" as free text. Public methods find the
 * business by its code alone and tell nothing about its members (the answer is the same for a
 * stranger, a member and a filled honeypot); the owner's methods take the session's scope.
 */
@Injectable()
export class BusinessJoinService {
  constructor(
    private readonly repository: BusinessJoinRepository,
    private readonly config: AppConfig,
    private readonly fraud: FraudSignalsService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * What the page shows for a code.
   * @throws ReferralLinkNotFoundException 404 (no business has that code)
   */
  async page(code: string): Promise<BusinessJoinPage> {
    const info = JOIN_CODE_SHAPE.test(code) ? await this.repository.findByCode(code) : null;
    if (!info) throw new ReferralLinkNotFoundException();
    return pageOf(info);
  }

  /**
   * A friend joins (`body` already checked by `validateBusinessJoin`): queued as a prospective
   * member of the code's business without a referring member, "Who referred you?" kept for the
   * owner (`referred_by_note`; on approval the new member waits in Referrals to match,
   * docs/product.md#referrals-to-match). An email of a member writes nothing; a filled honeypot
   * writes nothing; both are answered the same. A disposable email domain is flagged
   * (`disposable_email`), as in a referral join.
   * @returns `{ message: 'Successfully registered!' }`
   * @throws ReferralLinkNotFoundException 404 (no business has that code)
   */
  async join(
    code: string,
    body: BusinessJoinDto,
    clientAddress?: string,
  ): Promise<{ message: string }> {
    const success = { message: MESSAGES.referralSuccess };
    if (!JOIN_CODE_SHAPE.test(code)) throw new ReferralLinkNotFoundException();
    if (body.website && body.website.trim() !== '') {
      if (!(await this.repository.findByCode(code))) throw new ReferralLinkNotFoundException();
      return success;
    }
    const screening = this.fraud.screenJoin(body.email, clientAddress);
    const note = body.referredBy?.trim() ?? '';
    const found = await this.repository.transaction((manager) =>
      this.repository.join(
        code,
        {
          name: body.name,
          email: body.email,
          emailKey: emailKey(body.email),
          referredByNote: note === '' ? null : note,
          disposableEmail: screening.disposableEmail,
        },
        manager,
      ),
    );
    if (!found) throw new ReferralLinkNotFoundException();
    return success;
  }

  /** The session's business's join page link (`https://…/join/<code>`, on PUBLIC_ORIGIN). */
  async link(scope: BusinessScope): Promise<{ url: string }> {
    return { url: businessJoinUrl(this.config.publicOrigin, await this.repository.codeOf(scope)) };
  }

  /**
   * Replaces the session's business's join code (docs/product.md#business-join): the old
   * `/join/<code>` then answers as an unknown code (404, the failure page) and its printed QR
   * codes with it; the link and QR code show the new one. Recorded in the audit log as the
   * setting 'Join page link' (old → new link), in the replacement's transaction.
   * @returns the new link
   */
  async replaceLink(scope: BusinessScope): Promise<{ url: string }> {
    const urlOf = (code: string) => ({ url: businessJoinUrl(this.config.publicOrigin, code) });
    return this.audit.changeSetting(
      scope,
      'Join page link',
      async (manager) => urlOf(await this.repository.codeOf(scope, manager)),
      async (manager) => urlOf(await this.repository.replaceCode(scope, manager)),
    );
  }

  /** The join page link as an SVG QR code (the `qrcode` library, Grove green, as members' links). */
  async qrSvg(scope: BusinessScope): Promise<Buffer> {
    const { url } = await this.link(scope);
    const svg = await QRCode.toString(url, {
      type: 'svg',
      margin: 2,
      errorCorrectionLevel: 'M',
      color: { dark: '#123d27', light: '#ffffff' },
    });
    return Buffer.from(svg, 'utf8');
  }
}
