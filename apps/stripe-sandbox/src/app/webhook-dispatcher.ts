import { randomBytes } from 'node:crypto';
import { newId, nowSeconds } from './ids';
import type { StripeEvent } from './stripe-objects';
import { stripeSignatureHeader } from './webhook-signature';

/** A webhook endpoint: where events go and the secret that signs them. */
export interface WebhookEndpoint {
  /** `we_…` */
  id: string;
  url: string;
  /** `whsec_…`: keys the `Stripe-Signature` HMAC. */
  secret: string;
}

/** An endpoint to configure: url, and optionally its secret (default: a new `whsec_…`). */
export interface WebhookEndpointInput {
  url: string;
  secret?: string;
}

/** One delivery of one event to one endpoint, as recorded (read through `/_sandbox/deliveries`). */
export interface DeliveryRecord {
  eventId: string;
  eventType: string;
  endpointId: string;
  url: string;
  /** 'pending' while attempts remain, then 'delivered' (2xx) or 'failed'. */
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** HTTP status of the last attempt, null when it got none (network error, timeout). */
  lastStatus: number | null;
}

/** Settings of webhook delivery. */
export interface DispatcherOptions {
  /** Attempts per delivery (Stripe: retries for up to 3 days; default 4 here). */
  attempts: number;
  /** First wait between attempts, ms; doubles each time (Stripe: exponential backoff). */
  retryDelayMs: number;
  /** Deadline of one attempt, ms (default 10,000). */
  timeoutMs: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Delivers events to webhook endpoints as Stripe does (https://docs.stripe.com/webhooks): a POST of
 * the event JSON with `Content-Type: application/json; charset=utf-8` and
 * `Stripe-Signature: t=…,v1=…` ({@link stripeSignatureHeader}), retried with exponential backoff
 * on a non-2xx answer, a network error or a timeout. Every endpoint receives every event
 * (`enabled_events: ['*']`). Stripe does not promise order or exactly-once delivery; the control
 * routes use {@link deliver} with `times` and batches to reproduce both.
 */
export class WebhookDispatcher {
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  private readonly records: DeliveryRecord[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly stop = new AbortController();

  constructor(private readonly options: DispatcherOptions) {}

  /**
   * Adds an endpoint. @throws TypeError when `url` is not http(s) or the secret does not start
   * with `whsec_`
   */
  addEndpoint(input: WebhookEndpointInput): WebhookEndpoint {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      throw new TypeError('url must be an http(s) URL');
    }
    if (!/^https?:$/.test(url.protocol)) throw new TypeError('url must be an http(s) URL');
    const secret = input.secret ?? `whsec_${randomBytes(24).toString('hex')}`;
    if (typeof secret !== 'string' || !/^whsec_[A-Za-z0-9_]{1,200}$/.test(secret))
      throw new TypeError('secret must look like whsec_…');
    const endpoint = { id: newId('we'), url: input.url, secret };
    this.endpoints.set(endpoint.id, endpoint);
    return { ...endpoint };
  }

  /** Every endpoint with its secret. */
  listEndpoints(): WebhookEndpoint[] {
    return [...this.endpoints.values()].map((endpoint) => ({ ...endpoint }));
  }

  /** Removes one endpoint; false when there is none of that id. */
  removeEndpoint(id: string): boolean {
    return this.endpoints.delete(id);
  }

  /** Removes every endpoint. */
  clearEndpoints(): void {
    this.endpoints.clear();
  }

  /** The number of endpoints (an event's `pending_webhooks`). */
  get endpointCount(): number {
    return this.endpoints.size;
  }

  /** Sends an event to every endpoint (in the background), `times` times each (default 1). */
  deliver(event: StripeEvent, times = 1): void {
    const payload = JSON.stringify(event, null, 2);
    for (const endpoint of this.endpoints.values())
      for (let copy = 0; copy < times; copy += 1) this.track(this.send(event, payload, endpoint));
  }

  /** Every delivery so far, oldest first. */
  deliveries(): DeliveryRecord[] {
    return this.records.map((record) => ({ ...record }));
  }

  /** Forgets the delivery records. */
  clearDeliveries(): void {
    this.records.length = 0;
  }

  /** Resolves once no delivery is pending (attempts and backoff included). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Abandons pending retries (on close). */
  close(): void {
    this.stop.abort();
  }

  private track(promise: Promise<void>): void {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  private async send(
    event: StripeEvent,
    payload: string,
    endpoint: WebhookEndpoint,
  ): Promise<void> {
    const record: DeliveryRecord = {
      eventId: event.id,
      eventType: event.type,
      endpointId: endpoint.id,
      url: endpoint.url,
      state: 'pending',
      attempts: 0,
      lastStatus: null,
    };
    this.records.push(record);
    for (let attempt = 1; attempt <= this.options.attempts; attempt += 1) {
      if (this.stop.signal.aborted) break;
      record.attempts = attempt;
      record.lastStatus = await this.post(payload, endpoint);
      if (record.lastStatus !== null && record.lastStatus >= 200 && record.lastStatus < 300) {
        record.state = 'delivered';
        return;
      }
      if (attempt < this.options.attempts)
        await sleep(this.options.retryDelayMs * 2 ** (attempt - 1), this.stop.signal);
    }
    record.state = 'failed';
  }

  private async post(payload: string, endpoint: WebhookEndpoint): Promise<number | null> {
    try {
      const reply = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': stripeSignatureHeader(payload, endpoint.secret, nowSeconds()),
        },
        body: payload,
        signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.options.timeoutMs)]),
      });
      await reply.arrayBuffer().catch(() => undefined);
      return reply.status;
    } catch {
      return null;
    }
  }
}
