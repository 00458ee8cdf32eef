import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { STRIPE_OPERATIONS, type StripeOperationId } from '../contract/stripe-operations';
import { BillingFlows } from './billing-flows';
import { expandObject } from './expand';
import { parseForm, readBody } from './form-body';
import { IdempotencyCache } from './idempotency-cache';
import { newId } from './ids';
import { checkParams, type CheckedParams } from './param-validator';
import { matchOperation } from './route-match';
import { StripeRequestError, invalidRequest, unauthorized, unrecognizedUrl } from './stripe-error';
import { StripeStore, type PageUrls } from './stripe-store';
import { WebhookDispatcher, type WebhookEndpointInput } from './webhook-dispatcher';
import { SandboxControlRoutes } from './control-routes';
import { HostedPageRoutes } from './hosted-page-routes';
import {
  checkPermission,
  requiredAccess,
  resourceOfObject,
  type RestrictedAccess,
  type RestrictedKeyPermissions,
  type RestrictedResource,
} from './restricted-keys';

/**
 * The API version the sandbox answers in when a request names none: the one the pinned `stripe`
 * SDK sends (`Stripe.API_VERSION`; a test keeps them equal).
 */
export const DEFAULT_API_VERSION = '2026-10-28.endive';

/** Settings of a sandbox instance. */
export interface StripeSandboxOptions {
  /** Secret keys it accepts (`sk_test_…`); default `['sk_test_grove_sandbox']`. */
  apiKeys: string[];
  /**
   * Restricted keys it accepts (`rk_test_…`) with their permissions; a request outside them is
   * refused with Stripe's 403 (docs/stripe.md#refusals). Default none.
   */
  restrictedKeys: Record<string, RestrictedKeyPermissions>;
  /** The account id its permission errors name (default `acct_grove_sandbox`). */
  accountId: string;
  /** Webhook endpoints configured at start (url + `whsec_…` secret). */
  webhookEndpoints: WebhookEndpointInput[];
  /** Attempts per webhook delivery (default 4). */
  webhookAttempts: number;
  /** First wait between delivery attempts, ms, doubling (default 1,000; tests: ~10). */
  webhookRetryDelayMs: number;
  /** Deadline of one delivery attempt, ms (default 10,000). */
  webhookTimeoutMs: number;
  /**
   * Origin of the hosted pages (Checkout and portal `url`s), e.g. 'http://localhost:4020';
   * default: the address it listens on.
   */
  publicUrl?: string;
}

/** The defaults. */
export const DEFAULT_STRIPE_SANDBOX_OPTIONS: StripeSandboxOptions = {
  apiKeys: ['sk_test_grove_sandbox'],
  restrictedKeys: {},
  accountId: 'acct_grove_sandbox',
  webhookEndpoints: [],
  webhookAttempts: 4,
  webhookRetryDelayMs: 1_000,
  webhookTimeoutMs: 10_000,
};

/** Base path of the sandbox's own control API (not Stripe's). */
export const CONTROL_BASE = '/_sandbox';

/** A reply: JSON (object body), HTML (string body) or a redirect (`location`). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One API request as recorded: method, path, operationId, status, Stripe-Version sent. */
export interface RequestRecord {
  method: string;
  path: string;
  operationId: StripeOperationId | null;
  status: number;
  stripeVersion: string | null;
  idempotencyKey: string | null;
}

const API_VERSION_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(\.[a-z]{1,20})?$/;

/**
 * A stand-in for the Stripe API Grove uses (docs/stripe.md): the operations of
 * `src/contract/stripe-operations.ts` under `/v1` with Stripe's auth (`Authorization: Bearer
 * sk_test_…`), form-encoded parameters, error JSON, idempotency keys, `Stripe-Version`, object
 * shapes, lists and `expand`; webhooks signed as Stripe signs them; a hosted Checkout page
 * (`/c/pay/{session}`) and Customer Portal (`/p/session/{session}`); and a control API under
 * `/_sandbox` for tests (endpoints, deliveries, duplicate or out-of-order delivery, failed and
 * paid renewals). Bad input gets Stripe's 4xx, never a 500.
 */
export class StripeSandbox {
  readonly options: StripeSandboxOptions;
  readonly webhooks: WebhookDispatcher;
  readonly store: StripeStore;
  readonly billing: BillingFlows;
  private readonly idempotency = new IdempotencyCache();
  private readonly records: RequestRecord[] = [];
  private readonly control: SandboxControlRoutes;
  private readonly pages: HostedPageRoutes;
  private origin = 'http://127.0.0.1';

  constructor(options: Partial<StripeSandboxOptions> = {}) {
    this.options = {
      ...DEFAULT_STRIPE_SANDBOX_OPTIONS,
      ...options,
      // Its own record: the control API adds keys to it (`POST /_sandbox/restricted_keys`).
      restrictedKeys: { ...options.restrictedKeys },
    };
    this.webhooks = new WebhookDispatcher({
      attempts: this.options.webhookAttempts,
      retryDelayMs: this.options.webhookRetryDelayMs,
      timeoutMs: this.options.webhookTimeoutMs,
    });
    for (const endpoint of this.options.webhookEndpoints) this.webhooks.addEndpoint(endpoint);
    this.store = new StripeStore(DEFAULT_API_VERSION, (event) => {
      event.pending_webhooks = this.webhooks.endpointCount;
      this.webhooks.deliver(event);
    });
    this.billing = new BillingFlows(this.store);
    this.control = new SandboxControlRoutes(
      this.store,
      this.billing,
      this.webhooks,
      this.options.restrictedKeys,
    );
    this.pages = new HostedPageRoutes(this.store, this.billing);
  }

  /** Where the hosted pages are (from `publicUrl`, or the listening address). */
  get urls(): PageUrls {
    const origin = this.options.publicUrl ?? this.origin;
    return {
      checkout: (id) => `${origin}/c/pay/${id}`,
      portal: (id) => `${origin}/p/session/${id}`,
    };
  }

  /** Starts listening on `port` (0 = any free port) on `host`; resolves with the server. */
  listen(port = 0, host = '127.0.0.1'): Promise<Server> {
    const server = createServer((request, response) => {
      void this.serve(request, response);
    });
    server.keepAliveTimeout = 5_000;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        const address = server.address();
        if (address && typeof address === 'object')
          this.origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
        resolve(server);
      });
    });
  }

  /** The API requests received, oldest first. */
  requests(): RequestRecord[] {
    return this.records.map((record) => ({ ...record }));
  }

  // ---- HTTP ---------------------------------------------------------------------------------

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let reply: Reply;
    try {
      const url = new URL(request.url ?? '/', 'http://sandbox');
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path === '/health') reply = { status: 200, body: { status: 'ok' } };
      else if (path.startsWith(`${CONTROL_BASE}/`))
        reply = await this.control.serve(request, path.slice(CONTROL_BASE.length));
      else if (path.startsWith('/v1/')) reply = await this.api(request, path, url.search.slice(1));
      else reply = await this.pages.serve(request, path, this.urls);
    } catch (cause) {
      reply =
        cause instanceof StripeRequestError
          ? { status: cause.status, body: cause.toJSON() }
          : {
              status: 500,
              body: {
                error: {
                  type: 'api_error',
                  message: cause instanceof Error ? cause.message : 'Sandbox error',
                },
              },
            };
    }
    if (response.destroyed) return;
    const headers = { 'Request-Id': newId('req'), ...reply.headers };
    if (reply.body === undefined) {
      response.writeHead(reply.status, headers);
      response.end();
      return;
    }
    const html = typeof reply.body === 'string';
    const body = html ? (reply.body as string) : JSON.stringify(reply.body, null, 2);
    response.writeHead(reply.status, {
      'Content-Type': html ? 'text/html; charset=utf-8' : 'application/json',
      'Content-Length': Buffer.byteLength(body),
      ...headers,
    });
    response.end(body);
  }

  /**
   * A request to Stripe's API: auth, `Stripe-Version`, the operation, its parameters, then
   * idempotency (POST) and the operation. Every reply carries `Stripe-Version`.
   */
  private async api(request: IncomingMessage, path: string, query: string): Promise<Reply> {
    const method = request.method ?? 'GET';
    const versionHeader = header(request, 'stripe-version');
    const idempotencyKey = method === 'POST' ? header(request, 'idempotency-key') : undefined;
    const record: RequestRecord = {
      method,
      path,
      operationId: null,
      status: 0,
      stripeVersion: versionHeader ?? null,
      idempotencyKey: idempotencyKey ?? null,
    };
    this.records.push(record);
    let version = DEFAULT_API_VERSION;
    let reply: Reply;
    try {
      const apiKey = this.authenticate(request);
      if (versionHeader !== undefined) {
        if (!API_VERSION_PATTERN.test(versionHeader))
          throw invalidRequest(
            `Invalid Stripe API version: ${versionHeader}`,
            undefined,
            'api_version_invalid',
          );
        version = versionHeader;
        this.store.apiVersion = versionHeader;
      }
      const matched = matchOperation(method, path);
      if (!matched) throw unrecognizedUrl(method, path);
      record.operationId = matched.operationId;
      const text = method === 'POST' ? await readBody(request) : query;
      const params = checkParams(parseForm(text), STRIPE_OPERATIONS[matched.operationId].params);
      const restricted = this.options.restrictedKeys[apiKey];
      const allow = (resource: RestrictedResource, access: RestrictedAccess) => {
        if (restricted)
          checkPermission(apiKey, restricted, resource, access, this.options.accountId);
      };
      const needed = requiredAccess(matched.operationId);
      allow(needed.resource, needed.access);
      const run = () => this.run(matched.operationId, matched.pathParams, params, allow);
      reply = idempotencyKey
        ? this.idempotent(apiKey, idempotencyKey, `${method} ${path} ${text}`, run)
        : run();
    } catch (cause) {
      if (!(cause instanceof StripeRequestError)) throw cause;
      reply = { status: cause.status, body: cause.toJSON() };
    }
    record.status = reply.status;
    return {
      ...reply,
      headers: {
        'Stripe-Version': version,
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        ...reply.headers,
      },
    };
  }

  /**
   * The secret key of `Authorization: Bearer sk_test_…` (or Basic with the key as user name, as
   * Stripe also accepts). @throws StripeRequestError 401 when absent or not one of `apiKeys`
   */
  private authenticate(request: IncomingMessage): string {
    const authorization = header(request, 'authorization');
    if (!authorization)
      throw unauthorized(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    const [scheme, credentials = ''] = authorization.split(' ', 2);
    const key =
      scheme.toLowerCase() === 'basic'
        ? Buffer.from(credentials, 'base64').toString('utf8').split(':')[0]
        : scheme.toLowerCase() === 'bearer'
          ? credentials.trim()
          : '';
    if (!this.options.apiKeys.includes(key) && !(key in this.options.restrictedKeys))
      throw unauthorized(
        `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(4)}${key.slice(-4)}`,
      );
    return key;
  }

  /** Replays the kept reply for a known key, or runs and keeps a new one (`Idempotent-Replayed`). */
  private idempotent(apiKey: string, key: string, request: string, run: () => Reply): Reply {
    const kept = this.idempotency.lookup(apiKey, key, request);
    if (kept) return { ...kept, headers: { 'Idempotent-Replayed': 'true' } };
    let reply: Reply;
    try {
      reply = run();
    } catch (cause) {
      if (!(cause instanceof StripeRequestError)) throw cause;
      reply = { status: cause.status, body: cause.toJSON() };
    }
    this.idempotency.keep(apiKey, key, request, { status: reply.status, body: reply.body });
    return reply;
  }

  /** Runs one operation on checked parameters; the object is expanded per `expand[]`. */
  private run(
    operationId: StripeOperationId,
    path: Record<string, string>,
    params: CheckedParams,
    allow: (resource: RestrictedResource, access: RestrictedAccess) => void,
  ): Reply {
    const expand = (params.expand as string[] | undefined) ?? [];
    // An expanded object needs read access to its own resource (Grove expands only on reads).
    const find = (id: string) => {
      const found = this.store.find(id) as { object?: string } | undefined;
      const resource = found?.object ? resourceOfObject(found.object) : undefined;
      if (resource) allow(resource, 'read');
      return found;
    };
    const result = this.operation(operationId, path, params);
    // expandObject copies: the reply (and a kept idempotent reply) is a snapshot.
    return { status: 200, body: expandObject(result, expand, find) };
  }

  private operation(
    operationId: StripeOperationId,
    path: Record<string, string>,
    params: CheckedParams,
  ): object {
    const store = this.store;
    switch (operationId) {
      case 'PostCustomers':
        return store.createCustomer(params);
      case 'GetCustomersCustomer':
        return store.get('customer', path.customer, 'customer');
      case 'GetCustomers':
        return store.listCustomers(params);
      case 'PostCustomersCustomerBalanceTransactions':
        return store.createBalanceTransaction(path.customer, params);
      case 'PostCheckoutSessions':
        return store.createCheckoutSession(params, this.urls);
      case 'GetCheckoutSessionsSession':
        return store.get('checkout.session', path.session, 'session');
      case 'PostBillingPortalSessions':
        return store.createPortalSession(params, this.urls);
      case 'GetSubscriptions':
        return store.listSubscriptions(params);
      case 'GetSubscriptionsSubscriptionExposedId':
        return store.get('subscription', path.subscription_exposed_id, 'subscription_exposed_id');
      case 'PostSubscriptionsSubscriptionExposedId':
        return this.billing.updateSubscription(path.subscription_exposed_id, params);
      case 'GetInvoices':
        return store.listInvoices(params);
      case 'PostInvoicesCreatePreview':
        return this.billing.previewInvoice(params);
      case 'PostProducts':
        return store.createProduct(params);
      case 'PostPrices':
        return store.createPrice(params);
      case 'GetPrices':
        return store.listPrices(params);
      case 'PostCoupons':
        return store.createCoupon(params);
      case 'GetEventsId':
        return store.get('event', path.id, 'id');
    }
  }
}

/** A request header as one string (the first when repeated), or undefined. */
export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
