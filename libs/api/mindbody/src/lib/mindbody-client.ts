import {
  MindbodyAuthError,
  MindbodyRequestError,
  MindbodyUnavailableError,
} from './mindbody-errors';
import {
  MINDBODY_MAX_PAGE_SIZE,
  type Client,
  type CreateSubscriptionRequest,
  type DeleteSubscriptionResponse,
  type GetClientContractsResponse,
  type GetClientPurchasesResponse,
  type GetClientReferralTypesResponse,
  type GetClientsResponse,
  type GetSubscriptionsResponse,
  type IssueUserTokenRequest,
  type IssueUserTokenResponse,
  type MindbodyErrorBody,
  type PatchSubscriptionRequest,
  type UpdateClientContractAutopaysRequest,
  type UpdateClientContractAutopaysResponse,
  type WebhookSubscription,
} from './mindbody-types';

/** Settings of a {@link MindbodyClient}. */
export interface MindbodyClientOptions {
  /** Public API v6 base, e.g. `https://api.mindbodyonline.com/public/v6` or the sandbox's `<url>/public/v6`. */
  baseUrl: string;
  /** Webhooks API base; default `<origin of baseUrl>/push/api/v1` (the sandbox's layout). */
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
}

/** `getClients` parameters (Mindbody's `request.*` query parameters). */
export interface GetClientsParams {
  /** 1 to 200 (default 200). */
  limit?: number;
  /** Zero-based offset (default 0). */
  offset?: number;
  /** Only clients modified at or after this time. */
  lastModifiedDate?: Date | string;
  /** Only these client IDs. */
  clientIds?: string[];
  /** Matches name, email or phone. */
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

/** `allClients` parameters. */
export interface AllClientsParams {
  /** Page size, 1 to 200 (default 200). */
  pageSize?: number;
  /** Start offset, e.g. to resume an interrupted import (default 0). */
  startOffset?: number;
  /** Only clients modified at or after this time (incremental sync). */
  lastModifiedDate?: Date | string;
  /** Awaited after each page's clients were consumed (progress, checkpoints). */
  onPage?: (progress: ClientsPageProgress) => void | Promise<void>;
}

type Query = Record<string, string | number | string[] | undefined>;
interface RequestSpec {
  api: 'public' | 'webhooks';
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
}

type Attempt =
  | { kind: 'done'; value: unknown }
  | { kind: 'retry'; failure: number | 'timeout' | 'network'; waitMs?: number; cause?: unknown };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Typed client of the Mindbody Public API v6 and Webhooks API v1 (docs/architecture.md#mindbody), on the global
 * fetch. Every request sends `Api-Key` and `SiteId`; staff calls also send the staff token as
 * `Authorization`. Each attempt has its own deadline (`timeoutMs`); 429 (honouring
 * `Retry-After`), 5xx, timeouts and dropped connections are retried with exponential backoff and
 * jitter up to `retries` times; other 4xx are not.
 *
 * Errors: {@link MindbodyAuthError} (401/403), {@link MindbodyRequestError} (other 4xx, or a
 * reply that is not JSON), {@link MindbodyUnavailableError} (retries exhausted), `RangeError`
 * (a page size outside 1–200, before anything is sent).
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
    this.webhooksBaseUrl = (
      options.webhooksBaseUrl ?? new URL('/push/api/v1', this.baseUrl).toString()
    ).replace(/\/+$/, '');
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
    const reply = await this.request<IssueUserTokenResponse>({
      api: 'public',
      method: 'POST',
      path: '/usertoken/issue',
      body,
    });
    this.staffToken = reply.AccessToken;
    return reply;
  }

  /**
   * One page of `GET /client/clients` (staff token required).
   * @throws RangeError limit outside 1–200 or negative offset; the Mindbody errors of the class doc
   */
  async getClients(params: GetClientsParams = {}): Promise<GetClientsResponse> {
    return this.pagedGet<GetClientsResponse>('/client/clients', params, {
      'request.lastModifiedDate': toIso(params.lastModifiedDate),
      'request.clientIds': params.clientIds,
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
    page: { limit?: number; offset?: number } = {},
  ): Promise<GetClientContractsResponse> {
    return this.pagedGet<GetClientContractsResponse>('/client/clientcontracts', page, {
      'request.clientId': clientId,
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
    return this.pagedGet<GetClientPurchasesResponse>('/client/clientpurchases', params, {
      'request.clientId': clientId,
      'request.startDate': toIso(params.startDate),
      'request.endDate': toIso(params.endDate),
      'request.saleId': params.saleId,
    });
  }

  /**
   * `POST /client/updateclientcontractautopays` (staff token required): `Amount` (dollars)
   * overrides the contract's autopay amount — how a referral discount reaches the member's bill.
   * Retried like every call (setting an amount twice is harmless).
   * @throws the Mindbody errors of the class doc (404 unknown contract → MindbodyRequestError)
   */
  updateClientContractAutopays(
    request: UpdateClientContractAutopaysRequest,
  ): Promise<UpdateClientContractAutopaysResponse> {
    return this.request<UpdateClientContractAutopaysResponse>({
      api: 'public',
      method: 'POST',
      path: '/client/updateclientcontractautopays',
      body: request,
    });
  }

  /**
   * `GET /client/clientreferraltypes` (staff token required): the site's referral sources.
   * @throws the Mindbody errors of the class doc
   */
  getClientReferralTypes(): Promise<GetClientReferralTypesResponse> {
    return this.request<GetClientReferralTypesResponse>({
      api: 'public',
      method: 'GET',
      path: '/client/clientreferraltypes',
    });
  }

  /**
   * Webhooks `POST /api/v1/subscriptions`: a subscription in status 'PendingActivation' with its
   * `messageSignatureKey` (store it to verify deliveries).
   * @throws the Mindbody errors of the class doc (400 for a bad webhookUrl or event id)
   */
  createSubscription(request: CreateSubscriptionRequest): Promise<WebhookSubscription> {
    return this.request<WebhookSubscription>({
      api: 'webhooks',
      method: 'POST',
      path: '/subscriptions',
      body: request,
    });
  }

  /**
   * Webhooks `GET /api/v1/subscriptions`: every subscription of this developer account.
   * @throws the Mindbody errors of the class doc
   */
  getSubscriptions(): Promise<GetSubscriptionsResponse> {
    return this.request<GetSubscriptionsResponse>({
      api: 'webhooks',
      method: 'GET',
      path: '/subscriptions',
    });
  }

  /**
   * Webhooks `PATCH /api/v1/subscriptions/{id}` with `{status: 'Active'}`: deliveries start.
   * @throws MindbodyRequestError 404 unknown subscription; the other errors of the class doc
   */
  activateSubscription(
    subscriptionId: string,
    changes: Omit<PatchSubscriptionRequest, 'status'> = {},
  ): Promise<WebhookSubscription> {
    const body: PatchSubscriptionRequest = { ...changes, status: 'Active' };
    return this.request<WebhookSubscription>({
      api: 'webhooks',
      method: 'PATCH',
      path: `/subscriptions/${encodeURIComponent(subscriptionId)}`,
      body,
    });
  }

  /**
   * Webhooks `DELETE /api/v1/subscriptions/{id}`: deliveries stop.
   * @throws MindbodyRequestError 404 unknown subscription; the other errors of the class doc
   */
  deleteSubscription(subscriptionId: string): Promise<DeleteSubscriptionResponse> {
    return this.request<DeleteSubscriptionResponse>({
      api: 'webhooks',
      method: 'DELETE',
      path: `/subscriptions/${encodeURIComponent(subscriptionId)}`,
    });
  }

  /**
   * A paged Public API GET: `request.limit` (default 200) and `request.offset` (default 0) with
   * `query`. @throws RangeError limit outside 1–200 or negative offset, before anything is sent
   */
  private pagedGet<T>(
    path: string,
    page: { limit?: number; offset?: number },
    query: Query,
  ): Promise<T> {
    const limit = page.limit ?? MINDBODY_MAX_PAGE_SIZE;
    const offset = page.offset ?? 0;
    checkPage(limit, offset);
    return this.request<T>({
      api: 'public',
      method: 'GET',
      path,
      query: { ...query, 'request.limit': limit, 'request.offset': offset },
    });
  }

  private async request<T>(spec: RequestSpec): Promise<T> {
    const url = this.url(spec);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Api-Key': this.options.apiKey,
      SiteId: this.options.siteId,
    };
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.staffToken) headers.Authorization = this.staffToken;
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(url, spec.method, headers, body);
      if (outcome.kind === 'done') return outcome.value as T;
      if (attempt >= this.retries)
        throw new MindbodyUnavailableError(attempt + 1, outcome.failure, outcome.cause);
      const backoff =
        Math.min(this.maxBackoffMs, this.backoffMs * 2 ** attempt) * (0.5 + this.random() / 2);
      await sleep(outcome.waitMs !== undefined ? Math.max(outcome.waitMs, backoff / 2) : backoff);
    }
  }

  private async attempt(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Attempt> {
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
      return { kind: 'done', value: parsed };
    }
    const error = isErrorBody(parsed)
      ? parsed.Error
      : { Code: 'Unknown', Message: text.slice(0, 500) || `HTTP ${status}` };
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

  private url(spec: RequestSpec): string {
    const base = spec.api === 'public' ? this.baseUrl : this.webhooksBaseUrl;
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
    }
    const query = search.toString();
    return `${base}${spec.path}${query ? `?${query}` : ''}`;
  }
}

function checkPage(limit: number, offset: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MINDBODY_MAX_PAGE_SIZE) {
    throw new RangeError(`Mindbody page size must be 1-${MINDBODY_MAX_PAGE_SIZE}, got ${limit}`);
  }
  if (!Number.isInteger(offset) || offset < 0)
    throw new RangeError(`Mindbody offset must be a non-negative integer, got ${offset}`);
}

function toIso(value: Date | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value instanceof Date ? value.toISOString() : value;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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
