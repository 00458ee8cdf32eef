import { MindbodyAuthError } from '@grove/api-mindbody';
import type { MindbodyCrypto } from '../persistence/mindbody-crypto';
import type { MindbodyRunClient, MindbodySiteClient } from './mindbody-site-client';
import type { MindbodyIntegrationEntity } from '../persistence/mindbody-integration.entity';
import type { MindbodyRepository } from '../persistence/mindbody.repository';

/** A staff token this close to expiry is re-issued before use (ms). */
export const TOKEN_MARGIN_MS = 5 * 60_000;

/**
 * The Mindbody connection of ONE job run of one business (docs/architecture.md#mindbody): the stored staff token is
 * decrypted once and one client is built once ({@link MindbodySiteClient.forSite}), then shared by
 * every call of the run, however many run at once. The token is re-issued from the stored
 * credentials (and stored, sealed) when it is within `TOKEN_MARGIN_MS` of expiry or when Mindbody
 * refuses it; calls that need a new token at the same time share one `POST /usertoken/issue`.
 * A call refused with a token that has been replaced meanwhile is sent again with the new one.
 *
 * Not shared between runs: each run builds its own, from the integration row it read.
 */
export class MindbodySiteSession {
  private client: MindbodyRunClient | null = null;
  /** The staff token the client sends (plain), null before the first call. */
  private token: string | null = null;
  private renewing: Promise<void> | null = null;
  private requests = 0;
  private readonly count = () => {
    this.requests += 1;
    this.siteClient.metrics.businessRequest(this.integration.businessId);
  };

  constructor(
    private readonly integration: MindbodyIntegrationEntity,
    private readonly siteClient: MindbodySiteClient,
    private readonly crypto: MindbodyCrypto,
    private readonly integrations: MindbodyRepository,
  ) {}

  /** Mindbody requests this run has sent so far (retries and staff token issues included). */
  get calls(): number {
    return this.requests;
  }

  /**
   * Runs `work` with the run's client; when Mindbody refuses the staff token (401/403), gets a
   * new one and runs `work` once more.
   * @returns what `work` returns
   * @throws Error 'the integration has no stored credentials'; `SealedSecretError` when a stored
   *   secret cannot be decrypted; `MindbodyLoginRefusedError` when the stored credentials no longer
   *   work; else what `work` throws (the client lib's typed errors, after its retries)
   */
  async call<T>(work: (client: MindbodyRunClient) => Promise<T>): Promise<T> {
    const client = await this.ready();
    // The token this call sends: `work` builds its request (headers included) synchronously.
    const used = this.token;
    try {
      return await work(client);
    } catch (error) {
      if (!(error instanceof MindbodyAuthError)) throw error;
      await this.renew(used);
      return work(client);
    }
  }

  /** The client with a token that is not about to expire (built, or the token renewed, first). */
  private async ready(): Promise<MindbodyRunClient> {
    const { siteId, staffTokenEnc } = this.credentials();
    if (!this.client && !this.renewing && staffTokenEnc && this.fresh()) {
      this.token = this.crypto.open(staffTokenEnc);
      this.client = this.siteClient.forSite({ siteId, staffToken: this.token }, this.count);
    }
    if (!this.client || !this.fresh()) await this.renew(this.token);
    return this.client as MindbodyRunClient;
  }

  /**
   * Issues a new token unless `stale` has already been replaced; callers arriving while one is
   * being issued wait for that one.
   */
  private async renew(stale: string | null): Promise<void> {
    if (this.token !== stale && this.client) return;
    this.renewing ??= this.issue().finally(() => {
      this.renewing = null;
    });
    await this.renewing;
  }

  private async issue(): Promise<void> {
    const { siteId, username, passwordEnc } = this.credentials();
    const issued = await this.siteClient.issueStaffToken(
      siteId,
      username,
      this.crypto.open(passwordEnc),
      this.count,
    );
    const sealed = this.crypto.seal(issued.token);
    await this.integrations.saveStaffToken(this.integration.businessId, sealed, issued.expiresAt);
    this.integration.staffTokenEnc = sealed;
    this.integration.staffTokenExpiresAt = issued.expiresAt;
    this.token = issued.token;
    if (this.client) this.client.useStaffToken(issued.token);
    else this.client = this.siteClient.forSite({ siteId, staffToken: issued.token }, this.count);
  }

  private fresh(): boolean {
    const expiresAt = this.integration.staffTokenExpiresAt;
    return expiresAt !== null && expiresAt.getTime() - Date.now() > TOKEN_MARGIN_MS;
  }

  private credentials(): {
    siteId: string;
    username: string;
    passwordEnc: string;
    staffTokenEnc: string | null;
  } {
    const { siteId, username, passwordEnc, staffTokenEnc } = this.integration;
    if (!siteId || !username || !passwordEnc)
      throw new Error('the integration has no stored credentials');
    return { siteId, username, passwordEnc, staffTokenEnc };
  }
}
