import { Injectable } from '@nestjs/common';
import { verifyWebhookSignature } from '@grove/api-mindbody';
import { MindbodyCrypto } from './mindbody-crypto';
import { MindbodyRepository } from './mindbody.repository';

/** Keys older than this are read again before the next verification, milliseconds. */
const KEYS_MAX_AGE_MS = 30_000;
/** After a signature fails, the keys are read again at most this often, milliseconds. */
const REREAD_AFTER_FAILURE_MS = 5_000;

/** What verified a delivery: the developer account's subscription, or one business's own. */
export type WebhookSigner = { kind: 'account' } | { kind: 'business'; businessId: string };

interface OpenedKeys {
  /** The account subscription's messageSignatureKey, opened; null before Grove has one. */
  account: string | null;
  /** Site ID → the opened keys of subscriptions businesses made of their own before (issue 22). */
  bySite: Map<string, { businessId: string; key: string }[]>;
  readAt: number;
}

/**
 * The signature keys of Mindbody webhook deliveries, opened once and kept in memory, so a delivery
 * is verified before Grove reads anything for it (issue 31 item 6: a forged delivery costs an
 * HMAC, not a database read and a decryption). Keys are read again when older than 30 s, and after
 * a failed signature at most every 5 s (a key Mindbody rotated, or a subscription another API
 * instance made, is picked up without letting forged requests reach the database in numbers).
 */
@Injectable()
export class MindbodyWebhookKeys {
  private keys: OpenedKeys | null = null;
  private reading: Promise<OpenedKeys> | null = null;

  constructor(
    private readonly integrations: MindbodyRepository,
    private readonly crypto: MindbodyCrypto,
  ) {}

  /**
   * Who signed `rawBody`: the account subscription's key is tried on the raw bytes first; a
   * subscription of a business's own only for the delivery's `siteId` (`siteOf` parses the body,
   * and is called only when such subscriptions exist).
   * @param signature the `X-Mindbody-Signature` header as received
   * @returns the signer, or null when no key verifies the body
   */
  async signerOf(
    rawBody: Buffer,
    signature: string | string[] | undefined,
    siteOf: () => string | null,
  ): Promise<WebhookSigner | null> {
    const now = Date.now();
    let keys = await this.current(now - KEYS_MAX_AGE_MS);
    let signer = this.match(keys, rawBody, signature, siteOf);
    if (!signer && now - keys.readAt >= REREAD_AFTER_FAILURE_MS) {
      keys = await this.current(now);
      signer = this.match(keys, rawBody, signature, siteOf);
    }
    return signer;
  }

  /** Forgets the keys (this instance changed a subscription); the next delivery reads them. */
  invalidate(): void {
    this.keys = null;
  }

  private match(
    keys: OpenedKeys,
    rawBody: Buffer,
    signature: string | string[] | undefined,
    siteOf: () => string | null,
  ): WebhookSigner | null {
    if (keys.account && verifyWebhookSignature(rawBody, signature, keys.account))
      return { kind: 'account' };
    if (keys.bySite.size === 0) return null;
    const site = siteOf();
    const own = site
      ? keys.bySite.get(site)?.find(({ key }) => verifyWebhookSignature(rawBody, signature, key))
      : undefined;
    return own ? { kind: 'business', businessId: own.businessId } : null;
  }

  /** The keys, read again when read before `notBefore` (one read at a time). */
  private async current(notBefore: number): Promise<OpenedKeys> {
    if (this.keys && this.keys.readAt >= notBefore) return this.keys;
    this.reading ??= this.read().finally(() => (this.reading = null));
    this.keys = await this.reading;
    return this.keys;
  }

  private async read(): Promise<OpenedKeys> {
    const readAt = Date.now();
    const account = await this.integrations.accountSubscription();
    const bySite = new Map<string, { businessId: string; key: string }[]>();
    for (const own of await this.integrations.ownSubscriptionKeys()) {
      const key = this.open(own.signatureKeyEnc);
      if (!key) continue;
      bySite.set(own.siteId, [
        ...(bySite.get(own.siteId) ?? []),
        { businessId: own.businessId, key },
      ]);
    }
    return { account: account ? this.open(account.signatureKeyEnc) : null, bySite, readAt };
  }

  /** A sealed key opened, or null when it cannot be (a rotated GROVE key): it verifies nothing. */
  private open(sealed: string): string | null {
    try {
      return this.crypto.open(sealed);
    } catch {
      return null;
    }
  }
}
