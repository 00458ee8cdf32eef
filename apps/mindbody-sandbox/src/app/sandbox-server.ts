import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  MINDBODY_MAX_PAGE_SIZE,
  type CreateSubscriptionRequest,
  type GetActivationCodeResponse,
  type GetClientContractsResponse,
  type GetClientPurchasesResponse,
  type GetClientVisitsResponse,
  type AddClientRequest,
  type AddClientResponse,
  type GetClientReferralTypesResponse,
  type GetRequiredClientFieldsResponse,
  type GetClientsResponse,
  type GetSitesResponse,
  type IssueUserTokenResponse,
  type PaginationResponse,
  type PatchSubscriptionRequest,
  type UpdateClientContractAutopaysRequest,
  type UpdateClientContractAutopaysResponse,
  type WebhookDelivery,
} from '@grove/api-mindbody';
import { MindbodyContract } from './contract-validator';
import {
  FaultSwitches,
  invalidFaultRule,
  type FaultAction,
  type FaultRule,
} from './fault-switches';
import {
  SandboxStore,
  type StoreRefusal,
  type AutopayWrite,
  type NewSandboxClient,
  type NewSandboxPayment,
  type NewSandboxVisit,
  type SandboxClientChanges,
} from './sandbox-store';
import { SANDBOX_REFERRAL_TYPES } from './seed';
import { WebhookDispatcher, type DeliveryRecord } from './webhook-dispatcher';

/** A further site of the sandbox (the main one is `SandboxOptions.siteId`). */
export interface SandboxSiteOptions {
  /** Numeric site ID as a string, e.g. '-98'. */
  siteId: string;
  /** Seeded clients, 1 to 50,000 (default 25). */
  clientCount?: number;
  /** PRNG seed of its data (default: the sandbox's seed + its position). */
  seed?: number;
  /**
   * Whether the site has activated the developer account (default true). A site that has not
   * answers its calls as docs/decisions/mindbody-contract.md#not-activated says and sends no
   * webhooks, until the owner opens its activation link.
   */
  activated?: boolean;
  /**
   * The client fields the site requires of a new client (GetRequiredClientFields; AddClient refuses
   * a client without them). Default `['Email']`.
   */
  requiredClientFields?: string[];
}

/** Settings of a sandbox instance; the defaults are the ones the README gives. */
export interface SandboxOptions {
  /** The main site (activated): the one the control API's client routes act on by default. */
  siteId: string;
  apiKey: string;
  staffUsername: string;
  staffPassword: string;
  /** Seeded clients of the main site, 1 to 50,000. */
  clientCount: number;
  /** PRNG seed of the data (same seed and count → same clients). */
  seed: number;
  /** Further sites (default: '-98', not activated, 25 clients). */
  sites: SandboxSiteOptions[];
  /** Lifetime of a staff token, seconds (Mindbody: 7 days). */
  tokenTtlSeconds: number;
  /** Fault switches active from the start. */
  faults: FaultRule[];
  /** Attempts per webhook delivery. */
  webhookAttempts: number;
  /** Wait between webhook delivery attempts, ms. */
  webhookRetryDelayMs: number;
  /**
   * Check every reply to a Mindbody operation against the contract too (recorded:
   * `replyViolations`); off by default (it costs time on large pages), on in the contract tests.
   */
  checkReplies: boolean;
}

/** The defaults: site -99, the README's staff login and API key, 2,500 clients; site -98 not activated. */
export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  siteId: '-99',
  apiKey: 'grove-sandbox-key',
  staffUsername: 'owner@sandbox.example.com',
  staffPassword: 'sandbox-pass-1234',
  clientCount: 2_500,
  seed: 4,
  sites: [{ siteId: '-98', clientCount: 25, activated: false }],
  tokenTtlSeconds: 7 * 24 * 3600,
  faults: [],
  webhookAttempts: 3,
  webhookRetryDelayMs: 500,
  checkReplies: false,
};

/** Base path of the Public API v6. */
export const PUBLIC_API_BASE = '/public/v6';
/** Base path of the Webhooks API v1 (official host https://push-api.mindbodyonline.com). */
export const WEBHOOKS_API_BASE = '/api/v1';
/** Base path of the sandbox's own control API (not Mindbody's). */
export const CONTROL_BASE = '/_sandbox';

/** A site the sandbox serves. */
export interface SandboxSite {
  siteId: string;
  activated: boolean;
  /** GetActivationCodeResponse.ActivationCode of the site. */
  activationCode: string;
  store: SandboxStore;
  clientCount: number;
  seed: number;
  /** GetRequiredClientFieldsResponse.RequiredClientFields of the site. */
  requiredClientFields: string[];
}

/** A request the contract refused (read back by tests: a conforming client causes none). */
export interface ContractViolation {
  method: string;
  path: string;
  status: number;
  code: string;
  message: string;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The contract operation answered, for its reply check. */
  operationId?: string;
}
const error = (
  status: number,
  Code: string,
  Message: string,
  headers?: Record<string, string>,
): Reply => ({ status, body: { Error: { Message, Code } }, headers });
/** A Webhooks API error: the official PushApiResult envelope with isSuccess false. */
const pushError = (status: number, errorType: string, errorMessage: string): Reply => ({
  status,
  body: {
    isSuccess: false,
    value: null,
    errorInformation: [{ errorCode: status, errorMessage, errorType }],
  },
});
/** A Webhooks API success: `{isSuccess: true, value, errorInformation: []}`. */
const pushOk = (value: unknown): Reply => ({
  status: 200,
  body: { isSuccess: true, value, errorInformation: [] },
});
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Operations a site that has not activated the developer account still answers. */
const BEFORE_ACTIVATION = new Set(['getActivationCode', 'getSites']);
/** Public API operations that need no staff token. */
const WITHOUT_TOKEN = new Set(['issueToken', 'getActivationCode', 'getSites']);

/**
 * A stand-in for the Mindbody Public API v6 and Webhooks API v1 (docs/architecture.md#mindbody) on seeded data:
 * the same paths, headers (`API-Key`, `SiteId`, `Authorization`), JSON field names, paging and
 * error shapes (`{"Error":{"Message","Code"}}`; the Webhooks API's `{isSuccess, value,
 * errorInformation}` envelope), several sites (one not activated by default), plus fault switches
 * and a control API under `/_sandbox` for tests and demos. Every request to a Mindbody path is
 * checked against Grove's contract (`src/contract/mindbody-contract.openapi.json`,
 * {@link MindbodyContract}) before it is served: unknown path or method → 404, an undeclared
 * parameter or property or a wrong type → 400 (recorded: {@link contractViolations}).
 */
export class MindbodySandbox {
  readonly options: SandboxOptions;
  readonly faults = new FaultSwitches();
  readonly webhooks: WebhookDispatcher;
  readonly contract = new MindbodyContract();
  private readonly sites = new Map<string, SandboxSite>();
  private readonly tokens = new Map<string, { expires: number; siteId: string }>();
  private readonly counts = new Map<string, number>();
  private readonly operations = new Map<string, number>();
  private readonly violations: ContractViolation[] = [];
  private readonly badReplies: ContractViolation[] = [];

  constructor(options: Partial<SandboxOptions> = {}) {
    this.options = { ...DEFAULT_SANDBOX_OPTIONS, ...options };
    this.webhooks = new WebhookDispatcher({
      attempts: this.options.webhookAttempts,
      retryDelayMs: this.options.webhookRetryDelayMs,
      timeoutMs: 5_000,
    });
    this.addSite({
      siteId: this.options.siteId,
      clientCount: this.options.clientCount,
      seed: this.options.seed,
      activated: true,
    });
    this.options.sites.forEach((site, index) =>
      this.addSite({ ...site, seed: site.seed ?? this.options.seed + index + 1 }),
    );
    for (const rule of this.options.faults) this.addFault(rule);
  }

  /** The main site's data (`options.siteId`). */
  get store(): SandboxStore {
    return this.site(this.options.siteId).store;
  }

  /**
   * A site of the sandbox.
   * @throws Error for a site it does not have
   */
  site(siteId: string): SandboxSite {
    const site = this.sites.get(String(siteId));
    if (!site) throw new Error(`The sandbox has no site ${siteId}`);
    return site;
  }

  /** Every site: ID, activated, client count. */
  listSites(): { siteId: string; activated: boolean; clientCount: number }[] {
    return [...this.sites.values()].map((site) => ({
      siteId: site.siteId,
      activated: site.activated,
      clientCount: site.store.size,
    }));
  }

  /**
   * Adds (or reseeds) a site.
   * @throws TypeError for a site ID that is not a number, RangeError for a bad client count
   */
  addSite(input: SandboxSiteOptions): SandboxSite {
    if (!/^-?[0-9]+$/.test(input.siteId)) throw new TypeError('siteId must be a number');
    const siteId = input.siteId;
    const clientCount = input.clientCount ?? 25;
    const seed = input.seed ?? this.options.seed;
    const publish =
      <E extends WebhookDelivery>(eventId: E['eventId']) =>
      (data: E['eventData']) => {
        if (this.sites.get(siteId)?.activated) this.webhooks.publish<E>(eventId, data);
      };
    const store = new SandboxStore(
      { clientCount, seed, siteId: Number(siteId) },
      {
        clientCreated: publish('client.created'),
        clientUpdated: publish('client.updated'),
        clientDeactivated: publish('client.deactivated'),
        membershipCancelled: publish('clientMembershipAssignment.cancelled'),
        contractUpdated: publish('clientContract.updated'),
        contractCancelled: publish('clientContract.cancelled'),
        saleCreated: publish('clientSale.created'),
        profilesMerged: publish('clientProfileMerger.created'),
      },
    );
    const site: SandboxSite = {
      siteId,
      activated: input.activated ?? true,
      requiredClientFields: [...(input.requiredClientFields ?? ['Email'])],
      activationCode: createHash('sha256')
        .update(`activation:${siteId}`)
        .digest('hex')
        .slice(0, 8)
        .toUpperCase(),
      store,
      clientCount,
      seed,
    };
    this.sites.set(siteId, site);
    return site;
  }

  /**
   * Activates (or, with `false`, deactivates) the developer account at a site, as its owner does
   * by opening the activation link. @returns false for an unknown site
   */
  setActivated(siteId: string, activated = true): boolean {
    const site = this.sites.get(siteId);
    if (!site) return false;
    site.activated = activated;
    return true;
  }

  /** Starts listening on `port` (0 = any free port) on `host`; resolves with the server. */
  listen(port = 0, host = '127.0.0.1'): Promise<Server> {
    const server = createServer((request, response) => {
      void this.serve(request, response);
    });
    server.keepAliveTimeout = 5_000;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve(server));
    });
  }

  // ---- control (also served under /_sandbox) -----------------------------------------------

  /**
   * Reseeds the data of every site (clients, contracts, purchases, autopay writes; the main site
   * with `clientCount`/`seed` when given); faults, activations and subscriptions stay.
   */
  reset(options: { clientCount?: number; seed?: number } = {}): { clientCount: number } {
    this.options.clientCount = options.clientCount ?? this.options.clientCount;
    this.options.seed = options.seed ?? this.options.seed;
    for (const site of this.sites.values()) {
      if (site.siteId === this.options.siteId) {
        site.clientCount = this.options.clientCount;
        site.seed = this.options.seed;
      }
      site.store.reset({ clientCount: site.clientCount, seed: site.seed });
    }
    this.counts.clear();
    this.operations.clear();
    return { clientCount: this.store.size };
  }

  /** Adds a fault switch; throws `TypeError` for an invalid rule. */
  addFault(rule: FaultRule): FaultRule {
    const problem = invalidFaultRule(rule);
    if (problem) throw new TypeError(`Invalid fault rule: ${problem}`);
    return this.faults.add(rule);
  }

  /** Every staff token issued so far expires now. */
  expireTokens(): void {
    for (const token of this.tokens.values()) token.expires = 0;
  }

  /** Requests received per `METHOD /path` (Mindbody paths only), e.g. `GET /public/v6/client/clients`. */
  requestCounts(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  /** Requests received per contract operationId (those the contract accepted). */
  operationCounts(): Record<string, number> {
    return Object.fromEntries(this.operations);
  }

  /** Requests the contract refused (404 unknown operation, 400 invalid), oldest first. */
  contractViolations(): ContractViolation[] {
    return this.violations.map((violation) => ({ ...violation }));
  }

  /** Forgets the recorded contract violations (requests and replies). */
  clearContractViolations(): void {
    this.violations.length = 0;
    this.badReplies.length = 0;
  }

  /** Replies of the sandbox the contract refused (with `checkReplies`), oldest first. */
  replyViolations(): ContractViolation[] {
    return this.badReplies.map((violation) => ({ ...violation }));
  }

  /** The autopay writes received by every site, oldest first. */
  autopayWrites(): AutopayWrite[] {
    return [...this.sites.values()]
      .flatMap((site) => site.store.autopayWrites())
      .sort((a, b) => a.at.localeCompare(b.at));
  }

  /** The webhook deliveries so far. */
  deliveries(): DeliveryRecord[] {
    return this.webhooks.deliveries();
  }

  // ---- HTTP ---------------------------------------------------------------------------------

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let reply: Reply | undefined;
    try {
      const url = new URL(request.url ?? '/', 'http://sandbox');
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path === '/health') reply = { status: 200, body: { status: 'ok' } };
      else if (path.startsWith(CONTROL_BASE))
        reply = await this.control(request, path.slice(CONTROL_BASE.length), url.searchParams);
      else reply = await this.mindbody(request, path, url.searchParams);
    } catch (cause) {
      reply = error(
        500,
        'InternalServerError',
        cause instanceof Error ? cause.message : 'Sandbox error',
      );
    }
    if (!reply || response.destroyed) return;
    if (typeof reply.body === 'string') {
      response.writeHead(reply.status, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': Buffer.byteLength(reply.body),
      });
      response.end(reply.body);
      return;
    }
    const body = JSON.stringify(reply.body);
    response.writeHead(reply.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      ...reply.headers,
    });
    response.end(body);
  }

  /** A request to a Mindbody path: faults, the contract, the API key, then the operation. */
  private async mindbody(
    request: IncomingMessage,
    path: string,
    params: URLSearchParams,
  ): Promise<Reply | undefined> {
    const method = request.method ?? 'GET';
    const webhooksApi = path.toLowerCase().startsWith(WEBHOOKS_API_BASE);
    const key = `${method} ${path.toLowerCase()}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const fault = this.faults.match(method, path, params);
    if (fault?.latencyMs) await sleep(fault.latencyMs);
    if (fault && !fault.afterHandling) {
      const faulty = this.faultReply(request, fault);
      if (faulty !== false) return faulty;
    }
    const reply = await this.handle(request, method, path, params, webhooksApi);
    if (fault?.afterHandling) {
      const faulty = this.faultReply(request, fault);
      if (faulty !== false) return faulty;
    }
    return reply;
  }

  /** What a fault answers instead of the operation: nothing (a dropped connection), a status, or false (latency only). */
  private faultReply(request: IncomingMessage, fault: FaultAction): Reply | undefined | false {
    if (fault.drop) {
      request.socket.destroy();
      return undefined;
    }
    if (!fault.status) return false;
    const headers: Record<string, string> =
      fault.retryAfterSeconds !== undefined
        ? { 'Retry-After': String(fault.retryAfterSeconds) }
        : {};
    return error(
      fault.status,
      fault.status === 429 ? 'TooManyRequests' : 'InternalServerError',
      `Injected fault: HTTP ${fault.status}`,
      headers,
    );
  }

  /** The contract, the API key, then the operation. */
  private async handle(
    request: IncomingMessage,
    method: string,
    path: string,
    params: URLSearchParams,
    webhooksApi: boolean,
  ): Promise<Reply> {
    const fail = (status: number, code: string, message: string) =>
      webhooksApi ? pushError(status, code, message) : error(status, code, message);
    const matched = this.contract.match(method, path);
    const body = await readText(request);
    if ('status' in matched) {
      this.violations.push({ method, path, ...matched });
      return fail(matched.status, matched.code, matched.message);
    }
    if (request.headers['api-key'] !== this.options.apiKey)
      return webhooksApi
        ? pushError(
            401,
            'missingAPIKeyHeader',
            'An API-Key header was expected but was missing or not valid',
          )
        : error(401, 'DeniedAccess', 'Invalid or missing Api-Key');
    const refused = this.contract.checkRequest(matched, {
      query: params,
      headers: request.headers,
      body,
    });
    if (refused) {
      this.violations.push({ method, path, ...refused });
      return fail(refused.status, refused.code, refused.message);
    }
    const { operationId } = matched.operation;
    this.operations.set(operationId, (this.operations.get(operationId) ?? 0) + 1);
    const json = body.trim() === '' ? null : (JSON.parse(body) as Record<string, unknown>);
    const reply = webhooksApi
      ? await this.webhooksApi(operationId, matched.pathParams, json)
      : await this.publicApi(request, operationId, params, json);
    if (this.options.checkReplies) {
      const problems = this.contract.checkResponse(operationId, reply.status, reply.body);
      if (problems.length > 0)
        this.badReplies.push({
          method,
          path,
          status: reply.status,
          code: operationId,
          message: problems.join('; '),
        });
    }
    return { ...reply, operationId };
  }

  private async publicApi(
    request: IncomingMessage,
    operationId: string,
    params: URLSearchParams,
    body: Record<string, unknown> | null,
  ): Promise<Reply> {
    if (operationId === 'getSites') return this.listSitesReply(params);
    const siteId = String(request.headers['siteid']);
    const site = this.sites.get(siteId);
    if (!site) return error(400, 'InvalidSiteId', `Invalid SiteId: ${siteId}`);
    if (operationId === 'getActivationCode') {
      const body: GetActivationCodeResponse = {
        ActivationCode: site.activationCode,
        ActivationLink: `http://${request.headers.host ?? '127.0.0.1'}${CONTROL_BASE}/sites/${encodeURIComponent(siteId)}/activation?code=${site.activationCode}`,
      };
      return { status: 200, body };
    }
    if (!site.activated && !BEFORE_ACTIVATION.has(operationId))
      return error(
        403,
        'DeniedAccess',
        `The developer does not have access to site ${siteId}: it has not been activated`,
      );
    if (operationId === 'issueToken') return this.issueToken(site, body);
    if (!WITHOUT_TOKEN.has(operationId) && !this.authorized(request, site))
      return error(
        401,
        'DeniedAccess',
        'Authentication failed: missing, invalid or expired staff token',
      );
    const { store } = site;
    switch (operationId) {
      case 'getClients':
        return this.listClients(store, params);
      case 'getClientContracts':
        return this.listContracts(store, params);
      case 'getClientPurchases':
        return this.listPurchases(store, params);
      case 'getClientVisits':
        return this.listVisits(store, params);
      case 'updateClientContractAutopays':
        return this.updateAutopays(store, body as unknown as UpdateClientContractAutopaysRequest);
      case 'getRequiredClientFields': {
        const reply: GetRequiredClientFieldsResponse = {
          RequiredClientFields: [...site.requiredClientFields],
        };
        return { status: 200, body: reply };
      }
      case 'addClient':
        return this.addClientReply(site, body as unknown as AddClientRequest);
      case 'getClientReferralTypes': {
        const reply: GetClientReferralTypesResponse = {
          ReferralTypes: [...SANDBOX_REFERRAL_TYPES],
        };
        return { status: 200, body: reply };
      }
      default:
        return error(404, 'NotFound', `The sandbox does not serve ${operationId}`);
    }
  }

  /**
   * `POST /client/addclient` with a staff token (business mode): refuses a client missing one of
   * the site's required fields, a `ReferredBy` that is not one of its referral types, and a
   * duplicate (same first name, last name and email as a client of the site: refused by every
   * version of the Public API since May 2020), each with 400 and nothing added; else adds the
   * client (not a prospect, no membership; `client.created` fires) and answers `{ Client }`.
   * The refusals' codes and wording are the sandbox's (docs/decisions/mindbody-add-client.md).
   */
  private addClientReply(site: SandboxSite, request: AddClientRequest): Reply {
    const given = request as unknown as Record<string, unknown>;
    const missing = site.requiredClientFields.filter(
      (field) => typeof given[field] !== 'string' || (given[field] as string).trim() === '',
    );
    if (missing.length > 0)
      return error(400, 'MissingRequiredFields', `Missing required fields: ${missing.join(', ')}`);
    if (request.ReferredBy !== undefined && !SANDBOX_REFERRAL_TYPES.includes(request.ReferredBy))
      return error(
        400,
        'InvalidReferredBy',
        `'${request.ReferredBy}' is not a referral type of the site`,
      );
    const same = (a: string | null | undefined, b: string | null | undefined) =>
      (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();
    const duplicate = site.store
      .all()
      .some(
        (client) =>
          same(client.FirstName, request.FirstName) &&
          same(client.LastName, request.LastName) &&
          same(client.Email, request.Email),
      );
    if (duplicate)
      return error(
        400,
        'DuplicateClient',
        'A client with the same first name, last name and email already exists',
      );
    const client = site.store.addClient({
      FirstName: request.FirstName,
      LastName: request.LastName,
      Email: request.Email,
      MobilePhone: request.MobilePhone,
      ReferredBy: request.ReferredBy,
    });
    const reply: AddClientResponse = { Client: client };
    return { status: 200, body: reply };
  }

  /** `GET /site/sites`: the activated sites among `request.siteIds` (all activated ones without it). */
  private listSitesReply(params: URLSearchParams): Reply {
    const asked = params
      .getAll('request.siteIds')
      .concat(
        [...params.keys()]
          .filter((key) => /^request\.siteIds\[\d*\]$/.test(key))
          .flatMap((key) => params.getAll(key)),
      )
      .map(String);
    const sites = [...this.sites.values()]
      .filter((site) => site.activated && (asked.length === 0 || asked.includes(site.siteId)))
      .map((site) => ({
        Id: Number(site.siteId),
        Name: `Sandbox site ${site.siteId}`,
        TaxInclusivePrices: false,
        CurrencyIsoCode: 'USD',
        TimeZone: 'America/Los_Angeles',
      }));
    const paging = readPaging(params);
    if ('status' in paging) return paging;
    const { PaginationResponse, page } = pageOf(sites, paging);
    const body: GetSitesResponse = { PaginationResponse, Sites: page };
    return { status: 200, body };
  }

  private issueToken(site: SandboxSite, body: Record<string, unknown> | null): Reply {
    if (
      body?.Username !== this.options.staffUsername ||
      body?.Password !== this.options.staffPassword
    ) {
      return error(401, 'DeniedAccess', 'Invalid credentials');
    }
    const token = randomBytes(24).toString('hex');
    const expires = Date.now() + this.options.tokenTtlSeconds * 1000;
    this.tokens.set(token, { expires, siteId: site.siteId });
    const reply: IssueUserTokenResponse = {
      TokenType: 'Bearer',
      AccessToken: token,
      Expires: new Date(expires).toISOString(),
      User: { Id: 1, FirstName: 'Sandbox', LastName: 'Owner', Type: 'Owner' },
    };
    return { status: 200, body: reply };
  }

  private authorized(request: IncomingMessage, site: SandboxSite): boolean {
    const token = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const issued = this.tokens.get(token);
    return issued !== undefined && issued.siteId === site.siteId && issued.expires > Date.now();
  }

  private listClients(store: SandboxStore, params: URLSearchParams): Reply {
    const paging = readPaging(params);
    if ('status' in paging) return paging;
    const since = params.get('request.lastModifiedDate');
    const sinceTime = since ? Date.parse(since) : undefined;
    const clientIds = arrayParam(params, 'request.clientIDs');
    const uniqueIds = arrayParam(params, 'request.uniqueIds').map(Number);
    const searchText = params.get('request.searchText') ?? undefined;
    if (uniqueIds.length > 0 && (clientIds.length > 0 || searchText))
      return error(
        400,
        'InvalidParameter',
        'request.uniqueIds cannot be used with request.clientIDs or request.searchText',
      );
    const matching = store.query({
      since: sinceTime,
      clientIds,
      uniqueIds,
      searchText,
      includeInactive: params.get('request.includeInactive') === 'true',
    });
    const { PaginationResponse, page } = pageOf(matching, paging);
    const body: GetClientsResponse = { PaginationResponse, Clients: page };
    return { status: 200, body };
  }

  private listContracts(store: SandboxStore, params: URLSearchParams): Reply {
    const asked = this.clientPaging(store, params);
    if ('status' in asked) return asked;
    const { PaginationResponse, page } = pageOf(store.contractsOf(asked.clientId), asked);
    const body: GetClientContractsResponse = { PaginationResponse, Contracts: page };
    return { status: 200, body };
  }

  /** Paging and the existing client `request.clientId` names, or the error reply (400, 404). */
  private clientPaging(
    store: SandboxStore,
    params: URLSearchParams,
  ): { limit: number; offset: number; clientId: string } | Reply {
    const paging = readPaging(params);
    if ('status' in paging) return paging;
    const clientId = params.get('request.clientId') ?? '';
    const client = store.client(clientId);
    if (!client) return error(404, 'ClientNotFound', `Client ${clientId} not found`);
    const uniqueId = params.get('request.uniqueClientId');
    if (uniqueId !== null && Number(uniqueId) !== client.UniqueId)
      return error(404, 'ClientNotFound', `Client ${clientId} has another UniqueId`);
    return { ...paging, clientId };
  }

  /**
   * `GET /client/clientpurchases`: `request.clientId` (required), `request.startDate` and
   * `request.endDate` (Mindbody's defaults: the start and the end of today, UTC here),
   * `request.saleId`, paging.
   */
  private listPurchases(store: SandboxStore, params: URLSearchParams): Reply {
    const asked = this.clientPaging(store, params);
    if ('status' in asked) return asked;
    const today = new Date().toISOString().slice(0, 10);
    const from = Date.parse(params.get('request.startDate') ?? `${today}T00:00:00.000Z`);
    const to = Date.parse(params.get('request.endDate') ?? `${today}T23:59:59.999Z`);
    const saleIdText = params.get('request.saleId');
    const saleId = saleIdText === null ? undefined : Number(saleIdText);
    const purchases = store.purchasesOf(asked.clientId, from, to, saleId);
    const { PaginationResponse, page } = pageOf(purchases, asked);
    const body: GetClientPurchasesResponse = { PaginationResponse, Purchases: page };
    return { status: 200, body };
  }

  /**
   * `GET /client/clientvisits` (official GetClientVisits): the client named by
   * `request.uniqueClientId` (which takes precedence) or `request.clientId` — 400 with neither, as
   * the official page says one is needed; 404 unknown client. `request.endDate` defaults to today
   * (the end of it, UTC here), `request.startDate` to the end date; 400 when the start is after the
   * end. `request.order` 'desc' lists newest first, else oldest first. The sandbox keeps only this
   * site's visits, so `request.crossRegionalLookup` changes nothing; every recorded visit is paid,
   * so `request.unpaidsOnly=true` lists none. Paging as every list.
   */
  private listVisits(store: SandboxStore, params: URLSearchParams): Reply {
    const paging = readPaging(params);
    if ('status' in paging) return paging;
    const uniqueText = params.get('request.uniqueClientId');
    const clientIdText = params.get('request.clientId');
    if (uniqueText === null && !clientIdText)
      return error(
        400,
        'InvalidParameter',
        'request.clientId or request.uniqueClientId is required',
      );
    const client =
      uniqueText !== null
        ? store.all().find((item) => item.UniqueId === Number(uniqueText))
        : store.client(clientIdText ?? '');
    if (!client)
      return error(404, 'ClientNotFound', `Client ${uniqueText ?? clientIdText} not found`);
    const today = new Date().toISOString().slice(0, 10);
    const endText = params.get('request.endDate');
    const to = endText === null ? Date.parse(`${today}T23:59:59.999Z`) : Date.parse(endText);
    const startText = params.get('request.startDate');
    const from =
      startText === null
        ? endText === null
          ? Date.parse(`${today}T00:00:00.000Z`)
          : to
        : Date.parse(startText);
    if (from > to)
      return error(400, 'InvalidParameter', 'request.startDate must not be after request.endDate');
    const order = params.get('request.order') === 'desc' ? 'desc' : 'asc';
    const visits =
      params.get('request.unpaidsOnly') === 'true'
        ? []
        : store.visitsOf(client.Id, from, to, order);
    const { PaginationResponse, page } = pageOf(visits, paging);
    const body: GetClientVisitsResponse = { PaginationResponse, Visits: page };
    return { status: 200, body };
  }

  private updateAutopays(store: SandboxStore, body: UpdateClientContractAutopaysRequest): Reply {
    const result = store.updateAutopay(body);
    if ('status' in result) return error(result.status, result.code, result.message);
    const { contract } = result;
    // The official reply model is Contract (the contract template): its ID and name.
    const reply: UpdateClientContractAutopaysResponse = {
      Id: contract.ContractID,
      Name: contract.ContractName,
    };
    return { status: 200, body: reply };
  }

  private async webhooksApi(
    operationId: string,
    pathParams: Record<string, string>,
    body: Record<string, unknown> | null,
  ): Promise<Reply> {
    const id = pathParams.subscriptionId;
    const notFound = () => pushError(404, 'NotFound', `Subscription ${id} not found`);
    switch (operationId) {
      case 'getSubscriptions':
        return pushOk({ items: this.webhooks.list() });
      case 'createSubscription': {
        const check = WebhookDispatcher.validateCreate(body);
        if (!check.ok) return pushError(400, 'InvalidParameter', check.message);
        return pushOk(this.webhooks.create(body as unknown as CreateSubscriptionRequest));
      }
      case 'getSubscription': {
        const subscription = this.webhooks.get(id);
        return subscription ? pushOk(subscription) : notFound();
      }
      case 'patchSubscription': {
        const changes = (body ?? {}) as PatchSubscriptionRequest & Record<string, unknown>;
        if (changes.status !== undefined && changes.status !== 'Active')
          return pushError(400, 'InvalidParameter', "status can only be set to 'Active'");
        if (
          changes.eventIds !== undefined &&
          !WebhookDispatcher.validateCreate({
            webhookUrl: 'http://x',
            eventSchemaVersion: 1,
            eventIds: changes.eventIds,
          }).ok
        )
          return pushError(400, 'InvalidParameter', 'eventIds must list known events');
        const patched = await this.webhooks.patch(id, changes);
        if (!patched) return notFound();
        if ('refused' in patched) return pushError(400, 'InvalidWebhookUrl', patched.refused);
        return pushOk(patched);
      }
      case 'deleteSubscription': {
        const deleted = this.webhooks.delete(id);
        if (!deleted) return notFound();
        return pushOk({
          message: 'Subscription deactivated successfully.',
          deactivationDateTime: new Date().toISOString(),
          subscriptionId: id,
          referenceId: deleted.referenceId,
        });
      }
      default:
        return pushError(404, 'NotFound', `The sandbox does not serve ${operationId}`);
    }
  }

  private async control(
    request: IncomingMessage,
    route: string,
    params: URLSearchParams,
  ): Promise<Reply> {
    const method = request.method ?? 'GET';
    const body = method === 'GET' || method === 'DELETE' ? null : await readJson(request);
    if (method === 'GET' && route === '/state') {
      return {
        status: 200,
        body: {
          clientCount: this.store.size,
          sites: this.listSites(),
          faults: this.faults.list(),
          subscriptions: this.webhooks.list().length,
          autopayWrites: this.autopayWrites().length,
          requests: this.requestCounts(),
          operations: this.operationCounts(),
          contractViolations: this.contractViolations(),
        },
      };
    }
    if (route === '/sites') {
      if (method === 'GET') return { status: 200, body: { sites: this.listSites() } };
      if (method === 'POST') {
        const input = (body ?? {}) as unknown as SandboxSiteOptions;
        if (typeof input.siteId !== 'string' || !/^-?[0-9]+$/.test(input.siteId))
          return error(400, 'InvalidParameter', 'siteId must be a number (as a string)');
        const site = this.addSite(input);
        return {
          status: 201,
          body: { siteId: site.siteId, activated: site.activated, clientCount: site.store.size },
        };
      }
    }
    const siteMatch = /^\/sites\/([^/]+)\/(activate|deactivate|activation)$/.exec(route);
    if (siteMatch) {
      const siteId = decodeURIComponent(siteMatch[1]);
      const site = this.sites.get(siteId);
      if (!site) return error(404, 'NotFound', `No site ${siteId}`);
      if (method === 'GET' && siteMatch[2] === 'activation') {
        // The page an ActivationLink opens: the owner (signed in as the site owner) confirms.
        if (params.get('code') !== site.activationCode)
          return {
            status: 400,
            body: activationPage(siteId, 'This activation code is not valid.'),
          };
        site.activated = true;
        return {
          status: 200,
          body: activationPage(siteId, `Site ${siteId} now shares its data with Grove.`),
        };
      }
      if (method === 'POST') {
        site.activated = siteMatch[2] === 'activate';
        return { status: 200, body: { siteId, activated: site.activated } };
      }
    }
    const subscriptionMatch = /^\/subscriptions\/([^/]+)\/deactivate$/.exec(route);
    if (subscriptionMatch && method === 'POST') {
      return this.webhooks.deactivate(decodeURIComponent(subscriptionMatch[1]))
        ? { status: 200, body: { subscriptions: this.webhooks.list() } }
        : error(404, 'NotFound', 'Subscription not found');
    }
    if (route === '/contract-violations') {
      if (method === 'GET') return { status: 200, body: { violations: this.contractViolations() } };
      if (method === 'DELETE') {
        this.clearContractViolations();
        return { status: 200, body: { violations: [] } };
      }
    }
    let store: SandboxStore;
    try {
      store = this.site(params.get('siteId') ?? this.options.siteId).store;
    } catch (cause) {
      return error(404, 'NotFound', (cause as Error).message);
    }
    if (method === 'POST' && route === '/reset') {
      const clientCount = body?.clientCount;
      if (
        clientCount !== undefined &&
        (typeof clientCount !== 'number' || clientCount < 1 || clientCount > 50_000)
      ) {
        return error(400, 'InvalidParameter', 'clientCount must be 1-50000');
      }
      return {
        status: 200,
        body: this.reset({
          clientCount,
          seed: typeof body?.seed === 'number' ? body.seed : undefined,
        }),
      };
    }
    if (method === 'GET' && route === '/clients') {
      // The site's clients whose email is `?email=` (trimmed, case-insensitive): what a journey
      // reads to see a client Grove added (issue 33 item 4). Without it: none.
      const email = (params.get('email') ?? '').trim().toLowerCase();
      return {
        status: 200,
        body: {
          clients: email
            ? store.all().filter((client) => (client.Email ?? '').trim().toLowerCase() === email)
            : [],
        },
      };
    }
    if (method === 'POST' && route === '/clients') {
      if (!body || typeof body.FirstName !== 'string' || typeof body.LastName !== 'string')
        return error(400, 'InvalidParameter', 'FirstName and LastName are required');
      return { status: 201, body: store.addClient(body as unknown as NewSandboxClient) };
    }
    const clientMatch =
      /^\/clients\/([^/]+)(?:\/(cancel-membership|payments|visits|suspend|resume|renumber))?$/.exec(
        route,
      );
    if (clientMatch && method === 'POST' && clientMatch[2] === 'renumber') {
      const renumbered = store.renumberClient(
        decodeURIComponent(clientMatch[1]),
        String((body ?? {}).NewId ?? ''),
      );
      return 'status' in renumbered && typeof renumbered.status === 'number'
        ? error(
            renumbered.status,
            (renumbered as StoreRefusal).code,
            (renumbered as StoreRefusal).message,
          )
        : { status: 200, body: renumbered };
    }
    if (clientMatch && method === 'POST' && clientMatch[2] === 'payments') {
      const recorded = store.recordPayment(
        decodeURIComponent(clientMatch[1]),
        (body ?? {}) as NewSandboxPayment,
      );
      return 'status' in recorded
        ? error(recorded.status, recorded.code, recorded.message)
        : { status: 201, body: recorded };
    }
    if (clientMatch && method === 'POST' && clientMatch[2] === 'visits') {
      const recorded = store.recordVisit(
        decodeURIComponent(clientMatch[1]),
        (body ?? {}) as NewSandboxVisit,
      );
      return 'status' in recorded
        ? error(recorded.status, recorded.code, recorded.message)
        : { status: 201, body: recorded };
    }
    if (
      clientMatch &&
      method === 'POST' &&
      (clientMatch[2] === 'suspend' || clientMatch[2] === 'resume')
    ) {
      const id = decodeURIComponent(clientMatch[1]);
      const contract =
        clientMatch[2] === 'suspend' ? store.suspendMembership(id) : store.resumeMembership(id);
      return contract
        ? { status: 200, body: contract }
        : error(
            404,
            'NotFound',
            clientMatch[2] === 'suspend'
              ? 'No membership with running autopay for that client'
              : 'No suspended membership for that client',
          );
    }
    if (clientMatch && method === 'PATCH' && !clientMatch[2]) {
      const updated = store.updateClient(
        decodeURIComponent(clientMatch[1]),
        (body ?? {}) as SandboxClientChanges,
      );
      return updated
        ? { status: 200, body: updated }
        : error(404, 'ClientNotFound', 'Client not found');
    }
    if (clientMatch && method === 'POST' && clientMatch[2] === 'cancel-membership') {
      const contract = store.cancelMembership(decodeURIComponent(clientMatch[1]));
      return contract
        ? { status: 200, body: contract }
        : error(404, 'NotFound', 'No active membership for that client');
    }
    if (route === '/autopay-writes') {
      if (method === 'GET') return { status: 200, body: { writes: this.autopayWrites() } };
      if (method === 'DELETE') {
        for (const site of this.sites.values()) site.store.clearAutopayWrites();
        return { status: 200, body: { writes: [] } };
      }
    }
    if (route === '/faults') {
      if (method === 'GET') return { status: 200, body: { faults: this.faults.list() } };
      if (method === 'DELETE') {
        this.faults.clear();
        return { status: 200, body: { faults: [] } };
      }
      if (method === 'POST') {
        const rules = Array.isArray(body) ? body : [body];
        const problem = rules.map(invalidFaultRule).find(Boolean);
        if (problem) return error(400, 'InvalidParameter', problem);
        return {
          status: 201,
          body: { faults: rules.map((rule) => this.faults.add(rule as FaultRule)) },
        };
      }
    }
    const faultMatch = /^\/faults\/([^/]+)$/.exec(route);
    if (faultMatch && method === 'DELETE') {
      return this.faults.remove(decodeURIComponent(faultMatch[1]))
        ? { status: 200, body: { faults: this.faults.list() } }
        : error(404, 'NotFound', 'Fault not found');
    }
    if (method === 'POST' && route === '/tokens/expire') {
      this.expireTokens();
      return { status: 200, body: { expired: true } };
    }
    if (method === 'GET' && route === '/deliveries') {
      if (params.get('flush') === 'true') await this.webhooks.flush();
      return { status: 200, body: { deliveries: this.webhooks.deliveries() } };
    }
    return error(404, 'NotFound', `No control route for ${method} ${CONTROL_BASE}${route}`);
  }
}

/** One page of `items` (`request.limit`/`request.offset`) with Mindbody's PaginationResponse. */
function pageOf<T>(
  items: readonly T[],
  paging: { limit: number; offset: number },
): { PaginationResponse: PaginationResponse; page: T[] } {
  const page = items.slice(paging.offset, paging.offset + paging.limit);
  return {
    PaginationResponse: {
      RequestedLimit: paging.limit,
      RequestedOffset: paging.offset,
      PageSize: page.length,
      TotalResults: items.length,
    },
    page,
  };
}

function readPaging(params: URLSearchParams): { limit: number; offset: number } | Reply {
  const limit = Number(params.get('request.limit') ?? 100);
  const offset = Number(params.get('request.offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > MINDBODY_MAX_PAGE_SIZE) {
    return error(
      400,
      'InvalidParameter',
      `request.limit must be between 1 and ${MINDBODY_MAX_PAGE_SIZE}`,
    );
  }
  if (!Number.isInteger(offset) || offset < 0)
    return error(400, 'InvalidParameter', 'request.offset must be a non-negative integer');
  return { limit, offset };
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse((await readText(request)) || 'null');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The values of an array query parameter, sent repeated (`name=a&name=b`) or indexed (`name[0]=a`). */
function arrayParam(params: URLSearchParams, name: string): string[] {
  return [...params.entries()]
    .filter(([key]) => key === name || (key.startsWith(`${name}[`) && key.endsWith(']')))
    .map(([, value]) => value);
}

/** The small HTML page the sandbox's ActivationLink answers with. */
function activationPage(siteId: string, message: string): string {
  const text = message.replace(/[<>&]/g, '');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mindbody sandbox: site ${siteId.replace(/[<>&]/g, '')}</title></head><body><h1>Manage Credentials</h1><p>${text}</p></body></html>`;
}
