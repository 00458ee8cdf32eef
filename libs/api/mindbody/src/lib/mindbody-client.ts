import {
  MindbodyAuthError,
  MindbodyRequestError,
  MindbodyUnavailableError,
} from './mindbody-errors';
import {
  MINDBODY_OPERATIONS,
  type MindbodyOperation,
  type MindbodyOperationId,
} from './mindbody-operations';
import {
  MINDBODY_MAX_CLIENT_IDS,
  MINDBODY_MAX_PAGE_SIZE,
  MINDBODY_WEBHOOKS_API_URL,
  type AddClientRequest,
  type AddClientResponse,
  type Client,
  type CreatedSubscription,
  type CreateSubscriptionRequest,
  type DeleteSubscriptionResponse,
  type GetActivationCodeResponse,
  type GetClientContractsResponse,
  type GetClientPurchasesResponse,
  type GetClientVisitsResponse,
  type GetClientReferralTypesResponse,
  type GetClientsResponse,
  type GetRequiredClientFieldsResponse,
  type GetSitesResponse,
  type GetSubscriptionsResponse,
  type IssueUserTokenRequest,
  type IssueUserTokenResponse,
  type MindbodyErrorBody,
  type PatchSubscriptionRequest,
  type PushApiError,
  type UpdateClientContractAutopaysRequest,
  type UpdateClientContractAutopaysResponse,
  type WebhookSubscription,
} from './mindbody-types';

/** Settings of a {@link MindbodyClient}. */
export interface MindbodyClientOptions {
  /** Public API v6 base, e.g. `https://api.mindbodyonline.com/public/v6` or the sandbox's `<url>/public/v6`. */
  baseUrl: string;
  /**
   * Webhooks API base, e.g. the sandbox's `<url>/api/v1`; default {@link MINDBODY_WEBHOOKS_API_URL}
   * (`https://push-api.mindbodyonline.com/api/v1`, the official Webhooks SDK's host), never derived
   * from `baseUrl`.
   */
  webhooksBaseUrl?: string;
  /** Developer API key, sent as `Api-Key`. */
  apiKey: string;
  /** Mindbody site ID, sent as `SiteId` (the sandbox's is "-99"). */
  siteId: string;
  /** Per-attempt deadline in ms, covering the reply body too (default 10,000). */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and network errors (default 3). */
  retries?: number;
  /** Base of the exponential backoff in ms: attempt n waits ~backoffMs·2ⁿ with jitter (default 250). */
  backoffMs?: number;
  /** Upper bound of one backoff wait in ms (default 10,000). */
  maxBackoffMs?: number;
  /** Upper bound of a honoured `Retry-After` in ms (default 60,000). */
  maxRetryAfterMs?: number;
  /** A staff token issued earlier (else call {@link MindbodyClient.issueStaffToken}). */
  staffToken?: string;
  /** fetch implementation (default Node's global fetch). */
  fetch?: typeof fetch;
  /** Random source in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
  /**
   * Called for every HTTP request sent, retries included (Mindbody bills API calls: issue 22's
   * calls per run), with the operation's official operationId.
   */
  onRequest?: (operationId: MindbodyOperationId) => void;
}

/** `getClients` parameters (Mindbody's `request.*` query parameters, GetClients). */
export interface GetClientsParams {
  /** 1 to 200 (default 200). */
  limit?: number;
  /** Zero-based offset (default 0). */
  offset?: number;
  /** Only clients modified at or after this time (`request.lastModifiedDate`). */
  lastModifiedDate?: Date | string;
  /**
   * true: inactive profiles too (`request.includeInactive`; Mindbody's default is false, which
   * hides a deactivated client for good).
   */
  includeInactive?: boolean;
  /** Only these client IDs (`request.clientIDs`, at most 20). */
  clientIDs?: string[];
  /** Only these UniqueIds (`request.uniqueIds`; not together with clientIDs or searchText). */
  uniqueIds?: number[];
  /** Matches first name, last name or email (`request.searchText`). */
  searchText?: string;
}

/** Progress reported by `allClients` after each page has been yielded. */
export interface ClientsPageProgress {
  /** Offset of the next page (= clients received so far + the start offset). */
  nextOffset: number;
  /** Clients in the page just yielded. */
  pageSize: number;
  /** `PaginationResponse.TotalResults` of that page. */
  totalResults: number;
}

/** `getClientPurchases` parameters (Mindbody's `request.*` query parameters). */
export interface GetClientPurchasesParams {
  /**
   * Purchases whose sale is on or after this time. Mindbody's default is today, so a caller who
   * wants the history must send it.
   */
  startDate: Date | string;
  /** Purchases whose sale is on or before this time (Mindbody's default: the end of today). */
  endDate: Date | string;
  /** Only the items of this sale. */
  saleId?: number;
  /** 1 to 200 (default 200). */
  limit?: number;
  /** Zero-based offset (default 0). */
  offset?: number;
}

/** `getClientVisits` parameters (Mindbody's `request.*` query parameters). */
export interface GetClientVisitsParams {
  /** Visits on or after this time. Mindbody's default is the end date, so a caller who wants the history must send it. */
  startDate: Date | string;
  /** Visits up to this time (Mindbody's default: today). */
  endDate: Date | string;
  /** 1 to 200 (default 200). */
  limit?: number;
  /** Zero-based offset (default 0). */
  offset?: number;
}

/** `allClients` parameters. */
export interface AllClientsParams {
  /** Page size, 1 to 200 (default 200). */
  pageSize?: number;
  /** Start offset, e.g. to resume an interrupted import (default 0). */
  startOffset?: number;
  /** Only clients modified at or after this time (incremental sync). */
  lastModifiedDate?: Date | string;
  /** true: inactive profiles too (`request.includeInactive`). */
  includeInactive?: boolean;
  /** Awaited after each page's clients were consumed (progress, checkpoints). */
  onPage?: (progress: ClientsPageProgress) => void | Promise<void>;
}

type Query = Record<string, string | number | boolean | (string | number)[] | undefined>;
interface RequestSpec {
  operation: MindbodyOperationId;
  /** Values of the operation's `{name}` path parameters. */
  pathParams?: Record<string, string>;
  query?: Query;
  body?: unknown;
}

type Attempt =
  | { kind: 'done'; value: unknown }
  | { kind: 'retry'; failure: number | 'timeout' | 'network'; waitMs?: number; cause?: unknown };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Typed client of the Mindbody Public API v6 and Webhooks API v1 (docs/architecture.md#mindbody), on the global
 * fetch. It sends only the operations of {@link MINDBODY_OPERATIONS} (Grove's contract of each:
 * apps/mindbody-sandbox/src/contract/mindbody-contract.openapi.json). Every request sends
 * `Api-Key`; Public API requests also `SiteId` and, once issued, the staff token as
 * `Authorization`. Webhooks API replies are unwrapped from their `{isSuccess, value,
 * errorInformation}` envelope. Each attempt has its own deadline (`timeoutMs`); 429 (honouring
 * `Retry-After`), 5xx, timeouts and dropped connections are retried with exponential backoff and
 * jitter up to `retries` times; other 4xx are not. An operation that is not `repeatable`
 * (createSubscription) is retried only after a 429: after anything else it may have taken effect.
 *
 * Errors: {@link MindbodyAuthError} (401/403), {@link MindbodyRequestError} (other 4xx, a reply
 * that is not JSON, or a Webhooks reply with `isSuccess: false`), {@link MindbodyUnavailableError}
 * (retries exhausted, or the one attempt of an operation that is not repeatable), `RangeError` (a page size outside 1–200, more than 20 client IDs, before
 * anything is sent).
 */
export class MindbodyClient {
  private readonly baseUrl: string;
  private readonly webhooksBaseUrl: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly random: () => number;
  private staffToken: string | null;

  constructor(private readonly options: MindbodyClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.webhooksBaseUrl = (options.webhooksBaseUrl ?? MINDBODY_WEBHOOKS_API_URL).replace(
      /\/+$/,
      '',
    );
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = Math.max(0, options.retries ?? 3);
    this.backoffMs = options.backoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.random = options.random ?? Math.random;
    this.staffToken = options.staffToken ?? null;
  }

  /** The staff token in use, or null before `issueStaffToken`/`setStaffToken`. */
  getStaffToken(): string | null {
    return this.staffToken;
  }

  /** Uses a staff token issued earlier for the following calls. */
  setStaffToken(token: string | null): void {
    this.staffToken = token;
  }

  /**
   * `POST /usertoken/issue {Username, Password}` → `{AccessToken, Expires, User}`; the token is
   * kept and sent as `Authorization` by the following calls.
   * @throws MindbodyAuthError invalid staff credentials (docs/product.md#errors 'Invalid credentials provided')
   * @throws MindbodyRequestError e.g. 400 for a wrong SiteId
   * @throws MindbodyUnavailableError retries exhausted
   */
  async issueStaffToken(username: string, password: string): Promise<IssueUserTokenResponse> {
    const body: IssueUserTokenRequest = { Username: username, Password: password };
    const reply = await this.request<IssueUserTokenResponse>({ operation: 'issueToken', body });
    this.staffToken = reply.AccessToken;
    return reply;
  }

  /**
   * `GET /site/sites?request.siteIds=<siteId>` (GetSites): lists the site only when it has
   * activated this developer account — how Grove tells a site that has not been activated yet.
   * Needs no staff token.
   * @throws the Mindbody errors of the class doc
   */
  getSites(siteIds: number[]): Promise<GetSitesResponse> {
    return this.request<GetSitesResponse>({
      operation: 'getSites',
      query: { 'request.siteIds': siteIds },
    });
  }

  /**
   * `GET /site/activationcode` (GetActivationCode) for this client's site: the code and the link
   * (to the site's Manage Credentials screen) its owner opens, signed in to Mindbody, to let this
   * developer account read the site. Needs no staff token.
   * @throws the Mindbody errors of the class doc
   */
  getActivationCode(): Promise<GetActivationCodeResponse> {
    return this.request<GetActivationCodeResponse>({ operation: 'getActivationCode' });
  }

  /**
   * One page of `GET /client/clients` (GetClients, staff token required).
   * @throws RangeError limit outside 1–200, negative offset or more than 20 `clientIDs`; the
   *   Mindbody errors of the class doc
   */
  async getClients(params: GetClientsParams = {}): Promise<GetClientsResponse> {
    if (params.clientIDs && params.clientIDs.length > MINDBODY_MAX_CLIENT_IDS)
      throw new RangeError(
        `Mindbody reads at most ${MINDBODY_MAX_CLIENT_IDS} client IDs at once, got ${params.clientIDs.length}`,
      );
    return this.pagedGet<GetClientsResponse>('getClients', params, {
      'request.lastModifiedDate': toIso(params.lastModifiedDate),
      'request.includeInactive': params.includeInactive,
      'request.clientIDs': params.clientIDs,
      'request.uniqueIds': params.uniqueIds,
      'request.searchText': params.searchText,
    });
  }

  /**
   * Every client (or every client modified since `lastModifiedDate`), page by page by offset until
   * `TotalResults` (or an empty page). Yields clients in Mindbody's order; `onPage` is awaited
   * after each page's clients were consumed.
   * @throws as {@link getClients}, from the page that failed
   */
  async *allClients(params: AllClientsParams = {}): AsyncGenerator<Client, void, undefined> {
    const pageSize = params.pageSize ?? MINDBODY_MAX_PAGE_SIZE;
    let offset = params.startOffset ?? 0;
    checkPage(pageSize, offset);
    for (;;) {
      const page = await this.getClients({
        limit: pageSize,
        offset,
        lastModifiedDate: params.lastModifiedDate,
        includeInactive: params.includeInactive,
      });
      for (const client of page.Clients) yield client;
      offset += page.Clients.length;
      const totalResults = page.PaginationResponse.TotalResults;
      await params.onPage?.({ nextOffset: offset, pageSize: page.Clients.length, totalResults });
      if (page.Clients.length === 0 || offset >= totalResults) return;
    }
  }

  /**
   * `GET /client/clientcontracts?request.clientId=…` (staff token required): the client's
   * contracts with their autopay amounts (dollars).
   * @throws RangeError limit outside 1–200; the Mindbody errors of the class doc
   */
  async getClientContracts(
    clientId: string,
    page: { limit?: number; offset?: number; uniqueClientId?: number } = {},
  ): Promise<GetClientContractsResponse> {
    return this.pagedGet<GetClientContractsResponse>('getClientContracts', page, {
      'request.clientId': clientId,
      'request.uniqueClientId': page.uniqueClientId,
    });
  }

  /**
   * `GET /client/clientpurchases?request.clientId&request.startDate&request.endDate` (Public API
   * v6 GetClientPurchases, staff token required): one page of what the client bought in the
   * period, each item with its sale (date, payments) and the dollars paid; autopay charges of
   * contracts are purchases too. Chosen over `GET /sale/sales` because that one has no client
   * filter (it lists the whole site's sales in a period).
   * @throws RangeError limit outside 1–200 or negative offset; the Mindbody errors of the class doc
   *   (404 unknown client → MindbodyRequestError)
   */
  async getClientPurchases(
    clientId: string,
    params: GetClientPurchasesParams,
  ): Promise<GetClientPurchasesResponse> {
    return this.pagedGet<GetClientPurchasesResponse>('getClientPurchases', params, {
      'request.clientId': clientId,
      'request.startDate': toIso(params.startDate),
      'request.endDate': toIso(params.endDate),
      'request.saleId': params.saleId,
    });
  }

  /**
   * `GET /client/clientvisits?request.clientId&request.startDate&request.endDate` (Public API v6
   * GetClientVisits, staff token required): one page of the client's visits (class bookings, with
   * whether the client signed in) in the period.
   * @throws RangeError limit outside 1–200 or negative offset; the Mindbody errors of the class doc
   *   (404 unknown client → MindbodyRequestError)
   */
  async getClientVisits(
    clientId: string,
    params: GetClientVisitsParams,
  ): Promise<GetClientVisitsResponse> {
    return this.pagedGet<GetClientVisitsResponse>('getClientVisits', params, {
      'request.clientId': clientId,
      'request.startDate': toIso(params.startDate),
      'request.endDate': toIso(params.endDate),
    });
  }

  /**
   * `POST /client/updateclientcontractautopays` (UpdateClientContractAutopays, staff token
   * required): from `AutopayStartDate` on, the contract's autopays (of `ProductId` when the
   * contract has several products) charge `Amount` dollars — how a referral discount reaches the
   * member's bill. Retried like every call (setting an amount twice is harmless).
   * @returns the official reply model (Contract); Grove reads nothing of it
   * @throws the Mindbody errors of the class doc (404 unknown contract → MindbodyRequestError)
   */
  updateClientContractAutopays(
    request: UpdateClientContractAutopaysRequest,
  ): Promise<UpdateClientContractAutopaysResponse> {
    return this.request<UpdateClientContractAutopaysResponse>({
      operation: 'updateClientContractAutopays',
      body: request,
    });
  }

  /**
   * `GET /client/clientreferraltypes` (GetClientReferralTypes, staff token required): the site's
   * referral sources, the values `Client.ReferredBy` takes.
   * @throws the Mindbody errors of the class doc
   */
  getClientReferralTypes(): Promise<GetClientReferralTypesResponse> {
    return this.request<GetClientReferralTypesResponse>({ operation: 'getClientReferralTypes' });
  }

  /**
   * `GET /client/requiredclientfields` (GetRequiredClientFields): the fields the site requires of
   * a new client in business mode; AddClient refuses a client without them.
   * @throws the Mindbody errors of the class doc
   */
  getRequiredClientFields(): Promise<GetRequiredClientFieldsResponse> {
    return this.request<GetRequiredClientFieldsResponse>({ operation: 'getRequiredClientFields' });
  }

  /**
   * `POST /client/addclient` (AddClient, staff token: business mode): creates the client at the
   * site. Not retried after a timeout, a lost connection or a 5xx (the client may exist then):
   * the caller looks the email up with `getClients` before trying again.
   * @returns the client made (its `Id` and `UniqueId`)
   * @throws MindbodyRequestError 400 for a duplicate (same first name, last name and email, refused
   *   since May 2020) or a missing required field; the other Mindbody errors of the class doc
   */
  addClient(request: AddClientRequest): Promise<AddClientResponse> {
    return this.request<AddClientResponse>({ operation: 'addClient', body: request });
  }

  /**
   * Webhooks `POST /api/v1/subscriptions` (createSubscription): a subscription of the developer
   * account (every site that activated it) in status 'PendingActivation', with its
   * `messageSignatureKey` (returned only here: store it to verify deliveries).
   * @throws the Mindbody errors of the class doc (400 for a bad webhookUrl or event id)
   */
  createSubscription(request: CreateSubscriptionRequest): Promise<CreatedSubscription> {
    return this.request<CreatedSubscription>({ operation: 'createSubscription', body: request });
  }

  /**
   * Webhooks `GET /api/v1/subscriptions` (getSubscriptions): every subscription of this developer
   * account, without their keys.
   * @throws the Mindbody errors of the class doc
   */
  getSubscriptions(): Promise<GetSubscriptionsResponse> {
    return this.request<GetSubscriptionsResponse>({ operation: 'getSubscriptions' });
  }

  /**
   * Webhooks `GET /api/v1/subscriptions/{id}` (getSubscription): one subscription and its status.
   * @throws MindbodyRequestError 404 unknown subscription; the other errors of the class doc
   */
  getSubscription(subscriptionId: string): Promise<WebhookSubscription> {
    return this.request<WebhookSubscription>({
      operation: 'getSubscription',
      pathParams: { subscriptionId },
    });
  }

  /**
   * Webhooks `PATCH /api/v1/subscriptions/{id}` (patchSubscription) with `{status: 'Active'}`:
   * deliveries start (Mindbody first checks the webhookUrl with a HEAD request), or start again
   * after a deactivation.
   * @throws MindbodyRequestError 404 unknown subscription; the other errors of the class doc
   */
  activateSubscription(
    subscriptionId: string,
    changes: Omit<PatchSubscriptionRequest, 'status'> = {},
  ): Promise<WebhookSubscription> {
    const body: PatchSubscriptionRequest = { ...changes, status: 'Active' };
    return this.request<WebhookSubscription>({
      operation: 'patchSubscription',
      pathParams: { subscriptionId },
      body,
    });
  }

  /**
   * Webhooks `DELETE /api/v1/subscriptions/{id}` (deleteSubscription): deliveries stop.
   * @throws MindbodyRequestError 404 unknown subscription; the other errors of the class doc
   */
  deleteSubscription(subscriptionId: string): Promise<DeleteSubscriptionResponse> {
    return this.request<DeleteSubscriptionResponse>({
      operation: 'deleteSubscription',
      pathParams: { subscriptionId },
    });
  }

  /**
   * A paged Public API GET: `request.limit` (default 200) and `request.offset` (default 0) with
   * `query`. @throws RangeError limit outside 1–200 or negative offset, before anything is sent
   */
  private pagedGet<T>(
    operation: MindbodyOperationId,
    page: { limit?: number; offset?: number },
    query: Query,
  ): Promise<T> {
    const limit = page.limit ?? MINDBODY_MAX_PAGE_SIZE;
    const offset = page.offset ?? 0;
    checkPage(limit, offset);
    return this.request<T>({
      operation,
      query: { ...query, 'request.limit': limit, 'request.offset': offset },
    });
  }

  private async request<T>(spec: RequestSpec): Promise<T> {
    const operation: MindbodyOperation = MINDBODY_OPERATIONS[spec.operation];
    const url = this.url(operation, spec);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Api-Key': this.options.apiKey,
    };
    if (operation.api === 'public') {
      headers.SiteId = this.options.siteId;
      if (this.staffToken) headers.Authorization = this.staffToken;
    }
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    for (let attempt = 0; ; attempt++) {
      this.options.onRequest?.(spec.operation);
      const outcome = await this.attempt(url, operation, headers, body);
      if (outcome.kind === 'done') return outcome.value as T;
      const mayHaveWorked = outcome.failure !== 429;
      if (
        attempt >= this.retries ||
        ('repeatable' in operation && !operation.repeatable && mayHaveWorked)
      )
        throw new MindbodyUnavailableError(attempt + 1, outcome.failure, outcome.cause);
      const backoff =
        Math.min(this.maxBackoffMs, this.backoffMs * 2 ** attempt) * (0.5 + this.random() / 2);
      await sleep(outcome.waitMs !== undefined ? Math.max(outcome.waitMs, backoff / 2) : backoff);
    }
  }

  private async attempt(
    url: string,
    operation: MindbodyOperation,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Attempt> {
    const method = operation.method;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await this.fetchImpl(url, {
        method,
        headers,
        body,
        signal: controller.signal,
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (cause) {
      return { kind: 'retry', failure: controller.signal.aborted ? 'timeout' : 'network', cause };
    } finally {
      clearTimeout(timer);
    }
    if (status === 429)
      return { kind: 'retry', failure: 429, waitMs: this.retryAfterMs(retryAfter) };
    if (status >= 500) return { kind: 'retry', failure: status };
    const parsed = parseJson(text);
    if (status >= 200 && status < 300) {
      if (text !== '' && parsed === undefined)
        throw new MindbodyRequestError(
          status,
          'InvalidJson',
          'Mindbody replied with a body that is not JSON',
        );
      if (operation.api === 'public') return { kind: 'done', value: parsed };
      const envelope = parsed as { isSuccess?: unknown; value?: unknown } | undefined;
      if (envelope?.isSuccess !== true) {
        const failure = pushApiError(parsed) ?? {
          Code: 'Unknown',
          Message: 'The Webhooks API reported a failure without details',
        };
        throw new MindbodyRequestError(status, failure.Code, failure.Message);
      }
      return { kind: 'done', value: envelope.value };
    }
    const error = isErrorBody(parsed)
      ? parsed.Error
      : (pushApiError(parsed) ?? {
          Code: 'Unknown',
          Message: text.slice(0, 500) || `HTTP ${status}`,
        });
    if (status === 401 || status === 403)
      throw new MindbodyAuthError(status, error.Code, error.Message);
    throw new MindbodyRequestError(status, error.Code, error.Message);
  }

  private retryAfterMs(header: string | null): number | undefined {
    if (!header) return undefined;
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), this.maxRetryAfterMs) : undefined;
  }

  private url(operation: MindbodyOperation, spec: RequestSpec): string {
    const base = operation.api === 'public' ? this.baseUrl : this.webhooksBaseUrl;
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = spec.pathParams?.[name];
      if (value === undefined) throw new TypeError(`Missing path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
    }
    const query = search.toString();
    return `${base}${path}${query ? `?${query}` : ''}`;
  }
}

function checkPage(limit: number, offset: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MINDBODY_MAX_PAGE_SIZE) {
    throw new RangeError(`Mindbody page size must be 1-${MINDBODY_MAX_PAGE_SIZE}, got ${limit}`);
  }
  if (!Number.isInteger(offset) || offset < 0)
    throw new RangeError(`Mindbody offset must be a non-negative integer, got ${offset}`);
}

/**
 * A date parameter as the contract's `date-time`: a Date or a parseable string → ISO 8601 UTC
 * ('2000-01-01' → '2000-01-01T00:00:00.000Z'); a string that is no date is sent as it is (Mindbody
 * answers 400).
 */
function toIso(value: Date | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The first error of a Webhooks API reply (`errorInformation[0]` of the PushApiResult envelope,
 * or `errors[0]` as the Webhooks documentation shows a missing API-Key), as `{Code, Message}`;
 * null when the body has none.
 */
function pushApiError(value: unknown): { Code: string; Message: string } | null {
  if (!value || typeof value !== 'object') return null;
  const body = value as { errorInformation?: PushApiError[]; errors?: PushApiError[] };
  const first = body.errorInformation?.[0] ?? body.errors?.[0];
  return first
    ? { Code: String(first.errorType ?? first.errorCode), Message: String(first.errorMessage) }
    : null;
}

function isErrorBody(value: unknown): value is MindbodyErrorBody {
  if (!value || typeof value !== 'object' || !('Error' in value)) return false;
  const inner = (value as { Error: unknown }).Error;
  return (
    !!inner &&
    typeof inner === 'object' &&
    typeof (inner as { Message?: unknown }).Message === 'string'
  );
}
