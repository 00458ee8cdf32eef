import { Injectable } from '@nestjs/common';
import {
  MINDBODY_EVENT_IDS,
  MindbodyAuthError,
  MindbodyClient,
  MindbodyRequestError,
  type Client,
  type ClientContract,
} from '@grove/api-mindbody';
import { AppConfig } from '../../../platform/config/app-config';
import {
  MindbodyLoginRefusedError,
  type MindbodyAutopayContract,
  type MindbodyClientPage,
  type MindbodyContracts,
  type MindbodyClientRecord,
  type MindbodySite,
  type MindbodyWebhookSubscription,
} from './mindbody-records';

/** Mindbody dollars (JSON number) → integer cents. */
function dollarsToCentsRounded(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Client statuses of a membership that has ended. */
const ENDED_STATUSES = new Set<string>(['Expired', 'Terminated', 'Declined']);

/**
 * Where the search for a client's first payment starts: before any Mindbody sale (Mindbody's
 * default period is today only, so the history must be asked for).
 */
export const FIRST_PAYMENT_SEARCH_FROM = new Date('2000-01-01T00:00:00.000Z');

/** The contract whose autopays Grove adjusts: the first with active autopay. */
function autopayContract(contracts: ClientContract[]): ClientContract | undefined {
  return contracts.find((contract) => contract.AutopayStatus === 'Active');
}

const toRecord = (client: Client): MindbodyClientRecord => ({
  id: client.Id,
  firstName: client.FirstName ?? '',
  lastName: client.LastName ?? '',
  email: client.Email || null,
  isProspect: client.IsProspect === true,
  membershipEnded: ENDED_STATUSES.has(client.Status),
  membershipSuspended: client.Status === 'Suspended',
  referredBy: client.ReferredBy?.trim() || null,
  normalAutoPayCents: null,
});

/**
 * Mindbody's client calls on one site with one staff token: the calls of one job run (docs/architecture.md#mindbody),
 * over ONE `MindbodyClient` built by {@link MindbodySiteClient.forSite}; converts Mindbody's
 * dollars to cents. Every method throws the client lib's typed errors when Mindbody fails for good
 * (after its retries): `MindbodyAuthError` (401/403, e.g. an expired staff token),
 * `MindbodyRequestError`, `MindbodyUnavailableError`.
 */
export class MindbodyRunClient {
  constructor(private readonly client: MindbodyClient) {}

  /**
   * `GET /client/clients?request.limit&request.offset[&request.lastModifiedDate]` (Public API v6
   * GetClients) → Grove's client records (prices unknown here) and TotalResults.
   * @throws MindbodyAuthError, MindbodyRequestError, MindbodyUnavailableError (after the client's retries)
   */
  async clientsPage(page: {
    offset: number;
    limit: number;
    modifiedSince?: Date;
  }): Promise<MindbodyClientPage> {
    const reply = await this.client.getClients({
      limit: page.limit,
      offset: page.offset,
      lastModifiedDate: page.modifiedSince,
    });
    return { clients: reply.Clients.map(toRecord), total: reply.PaginationResponse.TotalResults };
  }

  /**
   * `GET /client/clientcontracts?request.clientId` (GetClientContracts) → the contract with
   * active autopay, its NormalAutoPay in cents ([] when the client has none), and whether the
   * membership is suspended (no autopay runs, one is 'Suspended': `ClientContract.AutopayStatus`).
   * @throws as {@link clientsPage}
   */
  async contracts(clientId: string): Promise<MindbodyContracts> {
    const reply = await this.client.getClientContracts(clientId);
    const contract = autopayContract(reply.Contracts);
    return {
      autopay: contract
        ? [
            {
              clientContractId: String(contract.Id),
              amountCents: dollarsToCentsRounded(contract.NormalAutoPay),
            },
          ]
        : [],
      suspended: !contract && reply.Contracts.some((item) => item.AutopayStatus === 'Suspended'),
    };
  }

  /**
   * The contract with active autopay ({@link contracts}' `autopay`).
   * @throws as {@link clientsPage}
   */
  async autopayContracts(clientId: string): Promise<MindbodyAutopayContract[]> {
    return (await this.contracts(clientId)).autopay;
  }

  /**
   * When the client first paid (docs/product.md#branch-qualification: "the friend's first paid
   * autopay or sale"): pages `GET /client/clientpurchases` (GetClientPurchases) from
   * {@link FIRST_PAYMENT_SEARCH_FROM} to `until`, 200 items a page (one request for a client who
   * has paid nothing), and takes the earliest `Sale.SaleDateTime` of an item with `AmountPaid` > 0
   * that was not returned; an autopay charge is a purchase like any sale.
   * @returns that time, or null when the client has paid nothing
   * @throws as {@link clientsPage}
   */
  async firstPayment(clientId: string, until: Date): Promise<Date | null> {
    let first: number | null = null;
    for (let offset = 0; ;) {
      const reply = await this.client.getClientPurchases(clientId, {
        startDate: FIRST_PAYMENT_SEARCH_FROM,
        endDate: until,
        offset,
      });
      for (const purchase of reply.Purchases) {
        const at = Date.parse(purchase.Sale?.SaleDateTime ?? '');
        if (purchase.AmountPaid > 0 && !purchase.Returned && !Number.isNaN(at))
          first = first === null ? at : Math.min(first, at);
      }
      offset += reply.Purchases.length;
      if (reply.Purchases.length === 0 || offset >= reply.PaginationResponse.TotalResults)
        return first === null ? null : new Date(first);
    }
  }

  /**
   * `POST /client/updateclientcontractautopays` (UpdateClientContractAutopays) with `Amount` =
   * `amountCents` / 100 dollars, overriding the contract's autopay amount from the next charge.
   * @throws as {@link clientsPage}
   */
  async updateAutopayAmount(
    clientId: string,
    clientContractId: string,
    amountCents: number,
  ): Promise<void> {
    await this.client.updateClientContractAutopays({
      ClientContractId: Number(clientContractId),
      ClientId: clientId,
      Amount: amountCents / 100,
    });
  }

  /** The staff token sent from the next call on (`MindbodyClient.setStaffToken`). */
  useStaffToken(staffToken: string): void {
    this.client.setStaffToken(staffToken);
  }
}

/**
 * What Grove asks of Mindbody (docs/architecture.md#mindbody), on `@grove/api-mindbody`'s `MindbodyClient` (timeouts,
 * retries with backoff on 429/5xx/dropped connections, typed errors), configured by
 * MINDBODY_API_URL, MINDBODY_API_KEY and MINDBODY_WEBHOOKS_URL: staff tokens, webhook
 * subscriptions, and a {@link MindbodyRunClient} per job run. Converts Mindbody's dollars to cents.
 * Tests point it at the Mindbody sandbox (`apps/api/test/mindbody-sandbox.ts`).
 */
@Injectable()
export class MindbodySiteClient {
  constructor(private readonly config: AppConfig) {}

  private client(siteId: string, staffToken?: string): MindbodyClient {
    const { apiUrl, apiKey, webhooksUrl } = this.config.mindbody;
    return new MindbodyClient({
      baseUrl: apiUrl,
      webhooksBaseUrl: webhooksUrl,
      apiKey,
      siteId,
      staffToken,
    });
  }

  /**
   * `POST /usertoken/issue {Username, Password}` (IssueUserToken) with `SiteId`.
   * @returns the AccessToken and its expiry (a day from now when Mindbody gives none)
   * @throws MindbodyLoginRefusedError on 401/403, or a 400 (e.g. an unknown site ID)
   * @throws MindbodyUnavailableError when Mindbody cannot be reached after retries
   */
  async issueStaffToken(
    siteId: string,
    username: string,
    password: string,
  ): Promise<{ token: string; expiresAt: Date }> {
    try {
      const reply = await this.client(siteId).issueStaffToken(username, password);
      const expires = reply.Expires ? Date.parse(reply.Expires) : Number.NaN;
      return {
        token: reply.AccessToken,
        expiresAt: new Date(Number.isNaN(expires) ? Date.now() + 24 * 3600_000 : expires),
      };
    } catch (error) {
      if (error instanceof MindbodyAuthError) throw new MindbodyLoginRefusedError();
      if (error instanceof MindbodyRequestError && error.status === 400)
        throw new MindbodyLoginRefusedError();
      throw error;
    }
  }

  /**
   * The calls of one job run on `site`: ONE client, built here and reused by every call of the
   * run (the import's pages, each contract read and autopay write), sending `site.staffToken`
   * until {@link MindbodyRunClient.useStaffToken} replaces it.
   */
  forSite(site: MindbodySite): MindbodyRunClient {
    return new MindbodyRunClient(this.client(site.siteId, site.staffToken));
  }

  /**
   * Creates and activates a subscription to client.created, client.updated and
   * clientMembershipAssignment.cancelled delivered to `webhookUrl`.
   * Webhooks API v1: `POST /subscriptions` (the three client events, schema 1, referenceId =
   * business id) then `PATCH /subscriptions/{id}` `{status:'Active'}`.
   * @param referenceId Grove's business id (Mindbody echoes it in the subscription)
   * @returns the subscription id and its messageSignatureKey
   * @throws as {@link MindbodyRunClient.clientsPage}
   */
  async subscribe(
    siteId: string,
    webhookUrl: string,
    referenceId: string,
  ): Promise<MindbodyWebhookSubscription> {
    const client = this.client(siteId);
    const created = await client.createSubscription({
      eventIds: [...MINDBODY_EVENT_IDS],
      eventSchemaVersion: 1,
      referenceId,
      webhookUrl,
    });
    await client.activateSubscription(created.subscriptionId);
    return { subscriptionId: created.subscriptionId, signatureKey: created.messageSignatureKey };
  }

  /**
   * Deletes a subscription. Webhooks API v1: `DELETE /subscriptions/{id}`; a 404 (already gone)
   * counts as done.
   * @throws as {@link MindbodyRunClient.clientsPage}
   */
  async unsubscribe(siteId: string, subscriptionId: string): Promise<void> {
    try {
      await this.client(siteId).deleteSubscription(subscriptionId);
    } catch (error) {
      if (error instanceof MindbodyRequestError && error.status === 404) return;
      throw error;
    }
  }
}
