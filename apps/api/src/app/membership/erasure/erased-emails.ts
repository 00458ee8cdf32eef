import { createHmac, hkdfSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { emailKey } from '@grove/contracts';
import { AppConfig } from '../../platform/config/app-config';
import type { BusinessScope } from '../../platform/database/business-scope';
import { ErasureRepository } from './erasure.repository';

/**
 * The emails of members erased on request (issue 34 item 6, docs/product.md#data-rights), kept
 * only as a keyed digest per business: HMAC-SHA-256 of the business's id and the email's key
 * (`emailKey`: case and Gmail dots do not matter) under a key derived (HKDF-SHA-256) from
 * JWT_SECRET, so the table cannot be reversed by trying addresses without the server's secret.
 * Adding or importing such an address asks the owner to confirm first.
 */
@Injectable()
export class ErasedEmails {
  private readonly key: Buffer;

  constructor(
    config: AppConfig,
    private readonly repository: ErasureRepository,
  ) {
    this.key = Buffer.from(
      hkdfSync('sha256', config.jwtSecret, 'grove', 'erased member email', 32),
    );
  }

  /** The digest (hex) of an email (or an email key) in the scope's business. */
  digest(scope: BusinessScope, email: string): string {
    return createHmac('sha256', this.key)
      .update(`${scope.businessId}\n${emailKey(email)}`)
      .digest('hex');
  }

  /** True when a member with this email was erased on request in the scope's business. */
  async wasErased(scope: BusinessScope, email: string, manager?: EntityManager): Promise<boolean> {
    const found = await this.repository.erasedDigests(scope, [this.digest(scope, email)], manager);
    return found.size > 0;
  }

  /**
   * Which of these emails (or email keys) were erased on request in the scope's business.
   * @returns the subset of `emails` that were, as given
   */
  async erasedAmong(
    scope: BusinessScope,
    emails: readonly string[],
    manager?: EntityManager,
  ): Promise<Set<string>> {
    const byDigest = new Map(emails.map((email) => [this.digest(scope, email), email]));
    const found = await this.repository.erasedDigests(scope, [...byDigest.keys()], manager);
    return new Set([...found].map((digest) => byDigest.get(digest) as string));
  }
}
