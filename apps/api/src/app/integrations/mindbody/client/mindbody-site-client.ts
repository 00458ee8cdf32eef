import { Injectable } from '@nestjs/common';
import {
  MINDBODY_EVENT_IDS,
  MindbodyAuthError,
  MindbodyClient,
  MindbodyRequestError,
  MindbodyUnavailableError,
  type AddClientRequest,
  type Client,
  type ClientContract,
  type CreatedSubscription,
  type UpcomingAutopayEvent,
} from '@grove/api-mindbody';
import type { MindbodySiteActivation } from '@grove/contracts';
import { AppConfig } from '../../../platform/config/app-config';
import { MetricsService } from '../../../platform/metrics/metrics.service';
import { MindbodyMetrics } from './mindbody-metrics';
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

/**
 * Client statuses of a membership that has ended. 'Declined' is not one: Mindbody lists it without
 * a meaning, and Grove takes it as a declined payment on a membership that still runs
 * (docs/decisions/mindbody-contract.md#client-status).
 */
const ENDED_STATUSES = new Set<string>(['Expired', 'Terminated']);

/**
 * Where the search for a client's first payment starts: before any Mindbody sale (Mindbody's
 * default period is today only, so the history must be asked for).
 */
export const FIRST_PAYMENT_SEARCH_FROM = new Date('2000-01-01T00:00:00.000Z');

/** The contract whose autopays Grove adjusts: the first with active autopay. */
function autopayContract(contracts: ClientContract[]): ClientContract | undefined {
  return contracts.find((contract) => contract.AutopayStatus === 'Active');
}

/**
 * The next autopay of a contract and its membership item: the events of the earliest
 * `ScheduleDate`, the item being the product with the largest `Subtotal` on that date (lowest
 * ProductId on a tie: docs/decisions/mindbody-contract.md#membership-item); `products` counts the
 * contract's distinct products. Undefined when Mindbody lists no upcoming autopay.
 */
function nextAutopay(
  contract: ClientContract,
):
  | { item: UpcomingAutopayEvent; date: string; chargeDollars: number; products: number }
  | undefined {
  const events = contract.UpcomingAutopayEvents ?? [];
  if (events.length === 0) return undefined;
  const first = Math.min(...events.map((event) => Date.parse(event.ScheduleDate)));
  const next = events.filter((event) => Date.parse(event.ScheduleDate) === first);
  const [item] = [...next].sort((a, b) => b.Subtotal - a.Subtotal || a.ProductId - b.ProductId);
  return {
    item,
    date: item.ScheduleDate,
    chargeDollars: next.reduce((sum, event) => sum + event.ChargeAmount, 0),
    products: new Set(events.map((event) => event.ProductId)).size,
  };
}

const toRecord = (client: Client): MindbodyClientRecord => ({
  id: client.Id,
  uniqueId: client.UniqueId,
  firstName: client.FirstName ?? '',
  lastName: client.LastName ?? '',
  email: client.Email || null,
  isProspect: client.IsProspect === true,
  // An inactive profile (read with request.includeInactive) has no running membership either.
  membershipEnded: ENDED_STATUSES.has(client.Status) || client.Active === false,
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
   * `GET /client/clients?request.limit&request.offset&request.includeInactive=true[&request.lastModifiedDate]`
   * (Public API v6 GetClients) → Grove's client records (prices unknown here) and TotalResults.
   * Inactive profiles are read too (Mindbody hides them by default, so a deactivated client would
   * never be seen again).
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
      includeInactive: true,
    });
    return { clients: reply.Clients.map(toRecord), total: reply.PaginationResponse.TotalResults };
  }

  /**
   * `GET /client/clientcontracts?request.clientId` (GetClientContracts) → the contract with
   * active autopay ([] when the client has none): its membership amount before tax in cents (the
   * membership item's `Subtotal` in the next upcoming autopay, else NormalAutoPay), the next
   * autopay's date, the membership item's ProductId when the contract has several products, and
   * what Mindbody will charge then (`ChargeAmount`s, tax included); and whether the membership is
   * suspended (no autopay runs, one is 'Suspended': `ClientContract.AutopayStatus`).
   * @throws as {@link clientsPage}
   */
  async contracts(clientId: string): Promise<MindbodyContracts> {
    const reply = await this.client.getClientContracts(clientId);
    const contract = autopayContract(reply.Contracts);
    const next = contract && nextAutopay(contract);
    return {
      autopay: contract
        ? [
            {
              clientContractId: String(contract.Id),
              amountCents: dollarsToCentsRounded(
                next ? next.item.Subtotal : contract.NormalAutoPay,
              ),
              nextAutopayDate: next?.date ?? null,
              productId: next && next.products > 1 ? next.item.ProductId : null,
              chargeCents: next ? dollarsToCentsRounded(next.chargeDollars) : null,
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
   * How many times the client came in a window (docs/decisions/mindbody-visits.md): pages
   * `GET /client/clientvisits` (GetClientVisits) with `request.startDate` = `since` (or
   * {@link FIRST_PAYMENT_SEARCH_FROM}: the first check reads the whole history) and
   * `request.endDate` = `askUntil`, 200 visits a page, and counts the visits the client was signed
   * in to that were neither late-cancelled nor missed and whose class started in [`since`, `until`).
   * `askUntil` is later than `until` (the run's time; `until` a day earlier): a visit of the last
   * day is listed but left to the next check, and a Mindbody that read `endDate` as a whole day
   * still lists every visit before `until`. Every visit of the window is read (no early stop), so
   * consecutive windows count each visit exactly once.
   * @returns the count (visits, a whole number)
   * @throws as {@link clientsPage} (404 unknown client → MindbodyRequestError)
   */
  async countVisits(
    clientId: string,
    window: { since: Date | null; until: Date; askUntil: Date },
  ): Promise<number> {
    const from = window.since ?? FIRST_PAYMENT_SEARCH_FROM;
    let counted = 0;
    for (let offset = 0; ;) {
      const reply = await this.client.getClientVisits(clientId, {
        startDate: from,
        endDate: window.askUntil,
        offset,
      });
      for (const visit of reply.Visits) {
        const at = Date.parse(visit.StartDateTime);
        if (
          visit.SignedIn === true &&
          visit.LateCancelled !== true &&
          visit.Missed !== true &&
          at >= from.getTime() &&
          at < window.until.getTime()
        )
          counted += 1;
      }
      offset += reply.Visits.length;
      if (reply.Visits.length === 0 || offset >= reply.PaginationResponse.TotalResults)
        return counted;
    }
  }

  /**
   * `POST /client/updateclientcontractautopays` (UpdateClientContractAutopaysRequest):
   * `{ClientContractId, AutopayStartDate: the contract's next autopay date, Amount:
   * amountCents / 100 dollars before tax}` and, for a contract of several products, the
   * membership item's `ProductId` — from the next charge on, indefinitely (no AutopayEndDate).
   * @returns false (nothing sent) when the contract lists no upcoming autopay to start from
   * @throws as {@link clientsPage}
   */
  async updateAutopayAmount(
    contract: MindbodyAutopayContract,
    amountCents: number,
  ): Promise<boolean> {
    if (!contract.nextAutopayDate) return false;
    await this.client.updateClientContractAutopays({
      ClientContractId: Number(contract.clientContractId),
      AutopayStartDate: contract.nextAutopayDate,
      ...(contract.productId !== null ? { ProductId: contract.productId } : {}),
      Amount: amountCents / 100,
    });
    return true;
  }

  /**
   * The site's clients whose email is `email` (trimmed, case-insensitive), inactive ones too:
   * `GET /client/clients?request.searchText=<email>&request.includeInactive=true` (GetClients
   * searches names and emails; Grove keeps the exact matches of its first 200), oldest first.
   * @throws as {@link clientsPage}
   */
  async clientsByEmail(email: string): Promise<MindbodyClientRecord[]> {
    const wanted = email.trim().toLowerCase();
    const reply = await this.client.getClients({
      searchText: email.trim(),
      includeInactive: true,
      limit: 200,
    });
    return reply.Clients.filter((client) => (client.Email ?? '').trim().toLowerCase() === wanted)
      .sort((a, b) => a.UniqueId - b.UniqueId)
      .map(toRecord);
  }

  /**
   * `GET /client/requiredclientfields` (GetRequiredClientFields): the fields AddClient requires at
   * the site (business mode: Grove sends a staff token), e.g. `['Email', 'MobilePhone']`.
   * @throws as {@link clientsPage}
   */
  async requiredClientFields(): Promise<string[]> {
    return (await this.client.getRequiredClientFields()).RequiredClientFields ?? [];
  }

  /**
   * `GET /client/clientreferraltypes` (GetClientReferralTypes): the labels AddClient takes as
   * `ReferredBy`.
   * @throws as {@link clientsPage}
   */
  async referralTypes(): Promise<string[]> {
    return (await this.client.getClientReferralTypes()).ReferralTypes ?? [];
  }

  /**
   * `POST /client/addclient` (AddClient) → the client made. Never retried by the client lib (no
   * idempotency key: a timeout may have added it); the caller looks the email up before trying
   * again (docs/decisions/mindbody-add-client.md).
   * @throws MindbodyRequestError 400 when Mindbody refuses it (a missing required field, an
   *   unknown referral type, a duplicate); else as {@link clientsPage}
   */
  async addClient(request: AddClientRequest): Promise<MindbodyClientRecord> {
    return toRecord((await this.client.addClient(request)).Client);
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
  /** Grove's Mindbody calls as metrics: every request by operation, a business's by business. */
  readonly metrics: MindbodyMetrics;

  constructor(
    private readonly config: AppConfig,
    metrics: MetricsService,
  ) {
    this.metrics = new MindbodyMetrics(metrics);
  }

  private client(siteId: string, staffToken?: string, onRequest?: () => void): MindbodyClient {
    const { apiUrl, apiKey, webhooksUrl } = this.config.mindbody;
    return new MindbodyClient({
      baseUrl: apiUrl,
      webhooksBaseUrl: webhooksUrl,
      apiKey,
      siteId,
      staffToken,
      onRequest: (operation) => {
        this.metrics.request(operation);
        onRequest?.();
      },
    });
  }

  /**
   * `POST /usertoken/issue {Username, Password}` (IssueUserToken) with `SiteId`.
   * @returns the AccessToken and its expiry (a day from now when Mindbody gives none)
   * @param onRequest called for each request sent (a job run counts its Mindbody calls)
   * @throws MindbodyLoginRefusedError on 401/403, or a 400 (e.g. an unknown site ID)
   * @throws MindbodyUnavailableError when Mindbody cannot be reached after retries
   */
  async issueStaffToken(
    siteId: string,
    username: string,
    password: string,
    onRequest?: () => void,
  ): Promise<{ token: string; expiresAt: Date }> {
    try {
      const reply = await this.client(siteId, undefined, onRequest).issueStaffToken(
        username,
        password,
      );
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
   * Whether `siteId` has activated Grove's developer account, and if not how its owner does it
   * (Mindbody's 'Getting started'; docs/decisions/mindbody-contract.md#not-activated):
   * `GET /site/sites?request.siteIds=<siteId>` (GetSites: only the sites the account may read)
   * lists it once activated; otherwise `GET /site/activationcode` (GetActivationCode, `SiteId`)
   * gives the code and the link the owner opens. No staff token is needed.
   * @returns `{siteId, activated, activationCode, activationLink}` (code and link null once activated)
   * @throws MindbodyRequestError e.g. 400 for a site Mindbody does not know; MindbodyAuthError
   *   (a wrong API key); MindbodyUnavailableError
   */
  async siteActivation(siteId: string): Promise<MindbodySiteActivation> {
    const client = this.client(siteId);
    const { Sites } = await client.getSites([Number(siteId)]);
    if (Sites.some((site) => String(site.Id) === siteId))
      return { siteId, activated: true, activationCode: null, activationLink: null };
    const code = await client.getActivationCode();
    return {
      siteId,
      activated: false,
      activationCode: code.ActivationCode,
      activationLink: code.ActivationLink,
    };
  }

  /**
   * The calls of one job run on `site`: ONE client, built here and reused by every call of the
   * run (the import's pages, each contract read and autopay write), sending `site.staffToken`
   * until {@link MindbodyRunClient.useStaffToken} replaces it; `onRequest` is called for each
   * request sent (the run's count of Mindbody calls).
   */
  forSite(site: MindbodySite, onRequest?: () => void): MindbodyRunClient {
    return new MindbodyRunClient(this.client(site.siteId, site.staffToken, onRequest));
  }

  /**
   * Creates and activates the developer account's subscription to Grove's events
   * ({@link MINDBODY_EVENT_IDS}) delivered to `webhookUrl` (it receives every activated site's
   * events). Webhooks API v1: `POST /subscriptions` (schema 1, referenceId) then
   * `PATCH /subscriptions/{id}` `{status:'Active'}` (Mindbody first sends a HEAD to the URL).
   * The POST has no idempotency key and only its reply carries the signature key, so it is never
   * retried blindly (docs/decisions/mindbody-writes-retried.md): before it, and again when its
   * reply is lost, the subscriptions of this URL and reference that Grove does not hold (`keep`)
   * are deleted: one made by a POST whose reply was lost, or whose key a crash kept Grove from
   * storing, would sign deliveries Grove cannot verify.
   * @param referenceId echoed by Mindbody in the subscription
   * @param keep ids of subscriptions whose keys Grove holds (never deleted here)
   * @returns the subscription id and its messageSignatureKey
   * @throws as {@link MindbodyRunClient.clientsPage}
   */
  async subscribe(
    webhookUrl: string,
    referenceId: string,
    keep: ReadonlySet<string> = new Set(),
  ): Promise<MindbodyWebhookSubscription> {
    // The Webhooks API is the developer account's: no site, no staff token.
    const client = this.client('');
    const deleteOrphans = async (): Promise<void> => {
      const { items } = await client.getSubscriptions();
      for (const orphan of items)
        if (
          orphan.webhookUrl === webhookUrl &&
          orphan.referenceId === referenceId &&
          !keep.has(orphan.subscriptionId)
        )
          await client.deleteSubscription(orphan.subscriptionId);
    };
    const create = () =>
      client.createSubscription({
        eventIds: [...MINDBODY_EVENT_IDS],
        eventSchemaVersion: 1,
        referenceId,
        webhookUrl,
      });
    await deleteOrphans();
    let created: CreatedSubscription;
    try {
      created = await create();
    } catch (error) {
      if (!(error instanceof MindbodyUnavailableError)) throw error;
      // The reply was lost, so Mindbody may have made the subscription: it goes, then one more
      // is made (issue 31 item 4).
      await deleteOrphans();
      created = await create();
    }
    await client.activateSubscription(created.subscriptionId);
    return { subscriptionId: created.subscriptionId, signatureKey: created.messageSignatureKey };
  }

  /**
   * The status of a subscription (Webhooks API v1 `GET /subscriptions/{id}`): 'Active', or why it
   * delivers nothing ('PendingActivation', 'DeactivatedTooManyFailedMessageDeliveryAttempts', …).
   * @throws as {@link MindbodyRunClient.clientsPage} (404: no such subscription)
   */
  async subscriptionStatus(subscriptionId: string): Promise<string> {
    return (await this.client('').getSubscription(subscriptionId)).status;
  }

  /**
   * Activates a subscription again (Webhooks API v1 `PATCH /subscriptions/{id}` `{status:
   * 'Active'}`; Mindbody checks the webhook URL with a HEAD first).
   * @returns the status after the change
   * @throws as {@link MindbodyRunClient.clientsPage}
   */
  async reactivate(subscriptionId: string): Promise<string> {
    return (await this.client('').activateSubscription(subscriptionId)).status;
  }

  /**
   * Deletes a subscription. Webhooks API v1: `DELETE /subscriptions/{id}`; a 404 (already gone)
   * counts as done.
   * @throws as {@link MindbodyRunClient.clientsPage}
   */
  async unsubscribe(subscriptionId: string): Promise<void> {
    try {
      await this.client('').deleteSubscription(subscriptionId);
    } catch (error) {
      if (error instanceof MindbodyRequestError && error.status === 404) return;
      throw error;
    }
  }
}
