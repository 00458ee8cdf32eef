import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  MINDBODY_MAX_PAGE_SIZE,
  type CreateSubscriptionRequest,
  type GetClientContractsResponse,
  type GetClientPurchasesResponse,
  type GetClientReferralTypesResponse,
  type GetClientsResponse,
  type IssueUserTokenResponse,
  type PaginationResponse,
  type PatchSubscriptionRequest,
  type UpdateClientContractAutopaysRequest,
  type UpdateClientContractAutopaysResponse,
} from '@grove/api-mindbody';
import { FaultSwitches, invalidFaultRule, type FaultRule } from './fault-switches';
import {
  SandboxStore,
  type AutopayWrite,
  type NewSandboxClient,
  type NewSandboxPayment,
  type SandboxClientChanges,
} from './sandbox-store';
import { SANDBOX_REFERRAL_TYPES } from './seed';
import { WebhookDispatcher, type DeliveryRecord } from './webhook-dispatcher';

/** Settings of a sandbox instance; the defaults are the ones the README gives. */
export interface SandboxOptions {
  siteId: string;
  apiKey: string;
  staffUsername: string;
  staffPassword: string;
  /** Seeded clients, 1 to 50,000. */
  clientCount: number;
  /** PRNG seed of the data (same seed and count → same clients). */
  seed: number;
  /** Lifetime of a staff token, seconds (Mindbody: 7 days). */
  tokenTtlSeconds: number;
  /** Fault switches active from the start. */
  faults: FaultRule[];
  /** Attempts per webhook delivery. */
  webhookAttempts: number;
  /** Wait between webhook delivery attempts, ms. */
  webhookRetryDelayMs: number;
}

/** The defaults: site -99, the README's staff login and API key, 2,500 clients. */
export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  siteId: '-99',
  apiKey: 'grove-sandbox-key',
  staffUsername: 'owner@sandbox.example.com',
  staffPassword: 'sandbox-pass-1234',
  clientCount: 2_500,
  seed: 4,
  tokenTtlSeconds: 7 * 24 * 3600,
  faults: [],
  webhookAttempts: 3,
  webhookRetryDelayMs: 500,
};

/** Base path of the Public API v6. */
export const PUBLIC_API_BASE = '/public/v6';
/** Base path of the Webhooks API v1. */
export const WEBHOOKS_API_BASE = '/push/api/v1';
/** Base path of the sandbox's own control API (not Mindbody's). */
export const CONTROL_BASE = '/_sandbox';

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
const error = (
  status: number,
  Code: string,
  Message: string,
  headers?: Record<string, string>,
): Reply => ({ status, body: { Error: { Message, Code } }, headers });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A stand-in for the Mindbody Public API v6 and Webhooks API v1 (docs/architecture.md#mindbody) on seeded data:
 * the same paths, headers (`Api-Key`, `SiteId`, `Authorization`), JSON field names, paging and
 * error shape (`{"Error":{"Message","Code"}}`), plus fault switches and a control API under
 * `/_sandbox` for tests and demos. Every method of the control API is also a method here.
 */
export class MindbodySandbox {
  readonly options: SandboxOptions;
  readonly store: SandboxStore;
  readonly faults = new FaultSwitches();
  readonly webhooks: WebhookDispatcher;
  private readonly tokens = new Map<string, number>();
  private readonly counts = new Map<string, number>();

  constructor(options: Partial<SandboxOptions> = {}) {
    this.options = { ...DEFAULT_SANDBOX_OPTIONS, ...options };
    this.webhooks = new WebhookDispatcher({
      attempts: this.options.webhookAttempts,
      retryDelayMs: this.options.webhookRetryDelayMs,
      timeoutMs: 5_000,
    });
    this.store = new SandboxStore(
      { clientCount: this.options.clientCount, seed: this.options.seed },
      {
        clientCreated: (data) => this.webhooks.publish('client.created', data),
        clientUpdated: (data) => this.webhooks.publish('client.updated', data),
        membershipCancelled: (data) =>
          this.webhooks.publish('clientMembershipAssignment.cancelled', data),
        contractUpdated: (data) => this.webhooks.publish('clientContract.updated', data),
        saleCreated: (data) => this.webhooks.publish('clientSale.created', data),
      },
    );
    for (const rule of this.options.faults) this.addFault(rule);
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

  /** Reseeds the data (clients, contracts, purchases, autopay writes); faults and subscriptions stay. */
  reset(options: { clientCount?: number; seed?: number } = {}): { clientCount: number } {
    this.options.clientCount = options.clientCount ?? this.options.clientCount;
    this.options.seed = options.seed ?? this.options.seed;
    this.store.reset({ clientCount: this.options.clientCount, seed: this.options.seed });
    this.counts.clear();
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
    for (const token of this.tokens.keys()) this.tokens.set(token, 0);
  }

  /** Requests received per `METHOD /path` (Mindbody paths only), e.g. `GET /public/v6/client/clients`. */
  requestCounts(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  /** The autopay writes received, oldest first. */
  autopayWrites(): AutopayWrite[] {
    return this.store.autopayWrites();
  }

  /** The webhook deliveries so far. */
  deliveries(): DeliveryRecord[] {
    return this.webhooks.deliveries();
  }

  // ---- HTTP ---------------------------------------------------------------------------------

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let reply: Reply;
    try {
      const url = new URL(request.url ?? '/', 'http://sandbox');
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path === '/health') reply = { status: 200, body: { status: 'ok' } };
      else if (path.startsWith(CONTROL_BASE))
        reply = await this.control(request, path.slice(CONTROL_BASE.length), url.searchParams);
      else {
        const key = `${request.method} ${path.toLowerCase()}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        const fault = this.faults.match(request.method ?? 'GET', path, url.searchParams);
        if (fault?.latencyMs) await sleep(fault.latencyMs);
        if (fault?.drop) {
          request.socket.destroy();
          return;
        }
        if (fault?.status) {
          const headers: Record<string, string> =
            fault.retryAfterSeconds !== undefined
              ? { 'Retry-After': String(fault.retryAfterSeconds) }
              : {};
          reply = error(
            fault.status,
            fault.status === 429 ? 'TooManyRequests' : 'InternalServerError',
            `Injected fault: HTTP ${fault.status}`,
            headers,
          );
        } else if (path.toLowerCase().startsWith(PUBLIC_API_BASE))
          reply = await this.publicApi(
            request,
            path.slice(PUBLIC_API_BASE.length).toLowerCase(),
            url.searchParams,
          );
        else if (path.toLowerCase().startsWith(WEBHOOKS_API_BASE))
          reply = await this.webhooksApi(request, path.slice(WEBHOOKS_API_BASE.length));
        else reply = error(404, 'NotFound', 'Not found');
      }
    } catch (cause) {
      reply = error(
        500,
        'InternalServerError',
        cause instanceof Error ? cause.message : 'Sandbox error',
      );
    }
    if (response.destroyed) return;
    const body = JSON.stringify(reply.body);
    response.writeHead(reply.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      ...reply.headers,
    });
    response.end(body);
  }

  private async publicApi(
    request: IncomingMessage,
    route: string,
    params: URLSearchParams,
  ): Promise<Reply> {
    if (request.headers['api-key'] !== this.options.apiKey)
      return error(401, 'DeniedAccess', 'Invalid or missing Api-Key');
    const site = request.headers['siteid'];
    if (!site) return error(400, 'MissingRequiredFields', 'SiteId header is required');
    if (site !== this.options.siteId)
      return error(400, 'InvalidSiteId', `Invalid SiteId: ${String(site)}`);
    const method = request.method ?? 'GET';
    if (method === 'POST' && route === '/usertoken/issue')
      return this.issueToken(await readJson(request));
    if (!this.authorized(request))
      return error(
        401,
        'DeniedAccess',
        'Authentication failed: missing, invalid or expired staff token',
      );
    if (method === 'GET' && route === '/client/clients') return this.listClients(params);
    if (method === 'GET' && route === '/client/clientcontracts') return this.listContracts(params);
    if (method === 'GET' && route === '/client/clientpurchases') return this.listPurchases(params);
    if (method === 'POST' && route === '/client/updateclientcontractautopays')
      return this.updateAutopays(await readJson(request));
    if (method === 'GET' && route === '/client/clientreferraltypes') {
      const body: GetClientReferralTypesResponse = { ReferralTypes: [...SANDBOX_REFERRAL_TYPES] };
      return { status: 200, body };
    }
    return error(404, 'NotFound', `No route for ${method} ${PUBLIC_API_BASE}${route}`);
  }

  private issueToken(body: Record<string, unknown> | null): Reply {
    if (
      body?.Username !== this.options.staffUsername ||
      body?.Password !== this.options.staffPassword
    ) {
      return error(401, 'DeniedAccess', 'Invalid credentials');
    }
    const token = randomBytes(24).toString('hex');
    const expires = Date.now() + this.options.tokenTtlSeconds * 1000;
    this.tokens.set(token, expires);
    const reply: IssueUserTokenResponse = {
      TokenType: 'Bearer',
      AccessToken: token,
      Expires: new Date(expires).toISOString(),
      User: { Id: 1, FirstName: 'Sandbox', LastName: 'Owner', Type: 'Owner' },
    };
    return { status: 200, body: reply };
  }

  private authorized(request: IncomingMessage): boolean {
    const token = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const expires = this.tokens.get(token);
    return expires !== undefined && expires > Date.now();
  }

  private listClients(params: URLSearchParams): Reply {
    const paging = readPaging(params);
    if ('status' in paging) return paging;
    const since = params.get('request.lastModifiedDate');
    const sinceTime = since ? Date.parse(since) : undefined;
    if (Number.isNaN(sinceTime))
      return error(400, 'InvalidParameter', 'request.lastModifiedDate is not a date');
    const clientIds = params
      .getAll('request.clientIds')
      .flatMap((value) => value.split(','))
      .map((id) => id.trim())
      .filter(Boolean);
    const matching = this.store.query({
      since: sinceTime,
      clientIds,
      searchText: params.get('request.searchText') ?? undefined,
    });
    const { PaginationResponse, page } = pageOf(matching, paging);
    const body: GetClientsResponse = { PaginationResponse, Clients: page };
    return { status: 200, body };
  }

  private listContracts(params: URLSearchParams): Reply {
    const asked = this.clientPaging(params);
    if ('status' in asked) return asked;
    const { PaginationResponse, page } = pageOf(this.store.contractsOf(asked.clientId), asked);
    const body: GetClientContractsResponse = { PaginationResponse, Contracts: page };
    return { status: 200, body };
  }

  /** Paging and the existing client `request.clientId` names, or the error reply (400, 404). */
  private clientPaging(
    params: URLSearchParams,
  ): { limit: number; offset: number; clientId: string } | Reply {
    const paging = readPaging(params);
    if ('status' in paging) return paging;
    const clientId = params.get('request.clientId');
    if (!clientId) return error(400, 'MissingRequiredFields', 'request.clientId is required');
    if (!this.store.client(clientId))
      return error(404, 'ClientNotFound', `Client ${clientId} not found`);
    return { ...paging, clientId };
  }

  /**
   * `GET /client/clientpurchases`: `request.clientId` (required), `request.startDate` and
   * `request.endDate` (Mindbody's defaults: the start and the end of today, UTC here),
   * `request.saleId`, paging.
   */
  private listPurchases(params: URLSearchParams): Reply {
    const asked = this.clientPaging(params);
    if ('status' in asked) return asked;
    const today = new Date().toISOString().slice(0, 10);
    const from = Date.parse(params.get('request.startDate') ?? `${today}T00:00:00.000Z`);
    const to = Date.parse(params.get('request.endDate') ?? `${today}T23:59:59.999Z`);
    if (Number.isNaN(from) || Number.isNaN(to))
      return error(400, 'InvalidParameter', 'request.startDate/request.endDate must be dates');
    const saleIdText = params.get('request.saleId');
    const saleId = saleIdText === null ? undefined : Number(saleIdText);
    if (saleId !== undefined && !Number.isInteger(saleId))
      return error(400, 'InvalidParameter', 'request.saleId must be an integer');
    const purchases = this.store.purchasesOf(asked.clientId, from, to, saleId);
    const { PaginationResponse, page } = pageOf(purchases, asked);
    const body: GetClientPurchasesResponse = { PaginationResponse, Purchases: page };
    return { status: 200, body };
  }

  private updateAutopays(body: Record<string, unknown> | null): Reply {
    if (!body) return error(400, 'InvalidParameter', 'A JSON body is required');
    const result = this.store.updateAutopay(body as unknown as UpdateClientContractAutopaysRequest);
    if ('status' in result) return error(result.status, result.code, result.message);
    const { contract } = result;
    const reply: UpdateClientContractAutopaysResponse = {
      Id: contract.Id,
      ContractName: contract.ContractName,
      NormalAutoPay: contract.NormalAutoPay,
      UpcomingAutopayEvents: contract.UpcomingAutopayEvents,
    };
    return { status: 200, body: reply };
  }

  private async webhooksApi(request: IncomingMessage, route: string): Promise<Reply> {
    if (request.headers['api-key'] !== this.options.apiKey)
      return error(401, 'DeniedAccess', 'Invalid or missing Api-Key');
    const method = request.method ?? 'GET';
    if (route === '/subscriptions') {
      if (method === 'GET') return { status: 200, body: { items: this.webhooks.list() } };
      if (method === 'POST') {
        const body = await readJson(request);
        const check = WebhookDispatcher.validateCreate(body);
        if (!check.ok) return error(400, 'InvalidParameter', check.message);
        return {
          status: 200,
          body: this.webhooks.create(body as unknown as CreateSubscriptionRequest),
        };
      }
    }
    const match = /^\/subscriptions\/([^/]+)$/.exec(route);
    if (match) {
      const id = decodeURIComponent(match[1]);
      if (method === 'GET') return found(this.webhooks.get(id), id);
      if (method === 'PATCH') {
        const body = (await readJson(request)) ?? {};
        if (body.status !== undefined && body.status !== 'Active')
          return error(400, 'InvalidParameter', "status can only be set to 'Active'");
        if (
          body.eventIds !== undefined &&
          !WebhookDispatcher.validateCreate({
            webhookUrl: 'http://x',
            eventSchemaVersion: 1,
            eventIds: body.eventIds,
          }).ok
        ) {
          return error(400, 'InvalidParameter', 'eventIds must list known events');
        }
        return found(this.webhooks.patch(id, body as PatchSubscriptionRequest), id);
      }
      if (method === 'DELETE') {
        const deleted = this.webhooks.delete(id);
        if (!deleted) return error(404, 'NotFound', `Subscription ${id} not found`);
        return {
          status: 200,
          body: {
            message: 'Subscription deactivated successfully.',
            deactivationDateTime: new Date().toISOString(),
            subscriptionId: id,
            referenceId: deleted.referenceId,
          },
        };
      }
    }
    return error(404, 'NotFound', `No route for ${method} ${WEBHOOKS_API_BASE}${route}`);
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
          faults: this.faults.list(),
          subscriptions: this.webhooks.list().length,
          autopayWrites: this.store.autopayWrites().length,
          requests: this.requestCounts(),
        },
      };
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
    if (method === 'POST' && route === '/clients') {
      if (!body || typeof body.FirstName !== 'string' || typeof body.LastName !== 'string')
        return error(400, 'InvalidParameter', 'FirstName and LastName are required');
      return { status: 201, body: this.store.addClient(body as unknown as NewSandboxClient) };
    }
    const clientMatch =
      /^\/clients\/([^/]+)(?:\/(cancel-membership|payments|suspend|resume))?$/.exec(route);
    if (clientMatch && method === 'POST' && clientMatch[2] === 'payments') {
      const recorded = this.store.recordPayment(
        decodeURIComponent(clientMatch[1]),
        (body ?? {}) as NewSandboxPayment,
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
        clientMatch[2] === 'suspend'
          ? this.store.suspendMembership(id)
          : this.store.resumeMembership(id);
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
      const updated = this.store.updateClient(
        decodeURIComponent(clientMatch[1]),
        (body ?? {}) as SandboxClientChanges,
      );
      return updated
        ? { status: 200, body: updated }
        : error(404, 'ClientNotFound', 'Client not found');
    }
    if (clientMatch && method === 'POST' && clientMatch[2] === 'cancel-membership') {
      const contract = this.store.cancelMembership(decodeURIComponent(clientMatch[1]));
      return contract
        ? { status: 200, body: contract }
        : error(404, 'NotFound', 'No active membership for that client');
    }
    if (route === '/autopay-writes') {
      if (method === 'GET') return { status: 200, body: { writes: this.store.autopayWrites() } };
      if (method === 'DELETE') {
        this.store.clearAutopayWrites();
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

function found<T>(value: T | undefined, id: string): Reply {
  return value
    ? { status: 200, body: value }
    : error(404, 'NotFound', `Subscription ${id} not found`);
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

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
