import { createHmac, hkdfSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { AppConfig } from '../../platform/config/app-config';
import type { BusinessScope } from '../../platform/database/business-scope';
import { isDisposableEmail } from './disposable-email';
import type { FraudSettings } from './fraud.config';
import { MemberPageOpensRepository } from './member-page-opens.repository';
import { clientNetwork } from '../../platform/common/client-network';

/** What the public join hands its one statement about the friend (`ReferralLinksRepository.join`). */
export interface JoinScreening {
  /** The email's domain is a throwaway service's (mailchecker's list). */
  disposableEmail: boolean;
  /** HMAC-SHA-256 of the client address, or null when Express knows none. */
  clientDigest: Buffer | null;
  /** FRAUD_BURST_JOINS, FRAUD_BURST_WINDOW_SECONDS, MEMBER_PAGE_OPEN_RETENTION_DAYS. */
  settings: FraudSettings;
}

/**
 * Fraud signals on referral joins (issue 15 part 4; docs/product.md#prospective-members): the
 * checks that need no database (disposable domain, the keyed client digest), and the record of a
 * member page opened from a client address that the member page (issue 15 part 1) calls. The
 * checks that need the database run inside the join's one statement.
 *
 * Client addresses are never stored: only HMAC-SHA-256 under a key derived (HKDF-SHA-256) from
 * JWT_SECRET, so a leaked table cannot be reversed by trying the 2^32 IPv4 addresses without the
 * server's secret.
 */
@Injectable()
export class FraudSignalsService {
  private readonly addressKey: Buffer;
  private readonly visitorKey: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly opens: MemberPageOpensRepository,
  ) {
    this.addressKey = Buffer.from(
      hkdfSync('sha256', config.jwtSecret, 'grove', 'member page client address', 32),
    );
    this.visitorKey = Buffer.from(
      hkdfSync('sha256', config.jwtSecret, 'grove', 'join page visitor', 32),
    );
  }

  /**
   * Who opened a join page, as a keyed digest (32 bytes) that changes with the day and the link
   * (issue 24 part 6: a visit counts once per visitor per link per UTC day): HMAC-SHA-256 of
   * `day`, `code` and the client address under its own key (HKDF of JWT_SECRET), so digests of
   * one visitor on two days or two links cannot be matched, nor the address tried back without
   * the server's secret.
   * @param code the referral code opened
   * @param clientAddress `req.ip` (behind TRUST_PROXY: X-Forwarded-For's client)
   * @param day the UTC day, `YYYY-MM-DD` (default today)
   */
  joinPageVisitor(
    code: string,
    clientAddress: string,
    day = new Date().toISOString().slice(0, 10),
  ): Buffer {
    return createHmac('sha256', this.visitorKey)
      .update(`${day}\n${code}\n${clientNetwork(clientAddress)}`)
      .digest();
  }

  /**
   * The keyed digest of a client address (32 bytes).
   * @param address `req.ip` as Express reports it (behind TRUST_PROXY: X-Forwarded-For's client)
   */
  clientDigest(address: string): Buffer {
    return createHmac('sha256', this.addressKey).update(clientNetwork(address)).digest();
  }

  /** The database-free checks of one join, the same work for every friend. */
  screenJoin(email: string, clientAddress: string | undefined): JoinScreening {
    return {
      disposableEmail: isDisposableEmail(email),
      clientDigest: clientAddress ? this.clientDigest(clientAddress) : null,
      settings: this.config.fraud,
    };
  }

  /**
   * Records that a member's own page was opened from this client address (for the member page,
   * issue 15 part 1: call it when the page is served to the member). A join through that member's
   * link from the same address within MEMBER_PAGE_OPEN_RETENTION_DAYS is flagged
   * 'member_page_address'. Only the keyed digest is stored.
   * @returns false when the member is not in this business (nothing recorded)
   */
  async recordMemberPageOpen(
    scope: BusinessScope,
    memberId: string,
    clientAddress: string,
  ): Promise<boolean> {
    if (!isUUID(memberId) || !clientAddress) return false;
    return this.opens.record(
      scope,
      memberId,
      this.clientDigest(clientAddress),
      this.config.fraud.memberPageOpenRetentionDays,
    );
  }
}
