import { randomBytes, randomUUID } from 'node:crypto';
import {
  MINDBODY_EVENT_IDS,
  MINDBODY_SIGNATURE_HEADER,
  signWebhookBody,
  type CreateSubscriptionRequest,
  type MindbodyEventId,
  type PatchSubscriptionRequest,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@grove/api-mindbody';

/** One delivery as the sandbox recorded it (read through the control API). */
export interface DeliveryRecord {
  messageId: string;
  eventId: MindbodyEventId;
  subscriptionId: string;
  webhookUrl: string;
  /** 'pending' while attempts remain, then 'delivered' (2xx) or 'failed'. */
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** HTTP status of the last attempt, or null when it did not get one. */
  lastStatus: number | null;
}

/** Settings of webhook delivery. */
export interface DispatcherOptions {
  /** Attempts per delivery (default 3). */
  attempts: number;
  /** Wait between attempts, ms (default 500; Mindbody waits 15 minutes). */
  retryDelayMs: number;
  /** Deadline of one attempt, ms (default 5,000). */
  timeoutMs: number;
}

type ValidationResult = { ok: true } | { ok: false; message: string };

/**
 * The Webhooks API's subscriptions and the deliveries of events to active subscriptions: each
 * delivery is POSTed to `webhookUrl` with `X-Mindbody-Signature: sha256=<base64 HMAC>` of the raw
 * body keyed with the subscription's `messageSignatureKey`, retried on non-2xx or network errors.
 */
export class WebhookDispatcher {
  private readonly subscriptions = new Map<string, WebhookSubscription>();
  private readonly records: DeliveryRecord[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly stop = new AbortController();

  constructor(private readonly options: DispatcherOptions) {}

  /** Checks a create body; the error message names the field. */
  static validateCreate(body: Record<string, unknown> | null): ValidationResult {
    if (!body) return { ok: false, message: 'A JSON body is required' };
    const url = typeof body.webhookUrl === 'string' ? safeUrl(body.webhookUrl) : null;
    if (!url || !/^https?:$/.test(url.protocol))
      return { ok: false, message: 'webhookUrl must be an http(s) URL' };
    if (!Array.isArray(body.eventIds) || body.eventIds.length === 0)
      return { ok: false, message: 'eventIds must list at least one event' };
    const unknown = body.eventIds.find(
      (id) => !(MINDBODY_EVENT_IDS as readonly unknown[]).includes(id),
    );
    if (unknown !== undefined) return { ok: false, message: `Unknown eventId ${String(unknown)}` };
    if (typeof body.eventSchemaVersion !== 'number')
      return { ok: false, message: 'eventSchemaVersion must be a number' };
    return { ok: true };
  }

  /** Creates a subscription in 'PendingActivation' with a new messageSignatureKey. */
  create(request: CreateSubscriptionRequest): WebhookSubscription {
    const subscription: WebhookSubscription = {
      subscriptionId: randomUUID(),
      status: 'PendingActivation',
      subscriptionCreationDateTime: new Date().toISOString(),
      statusChangeDate: null,
      statusChangeMessage: null,
      statusChangeUser: null,
      eventIds: [...request.eventIds],
      eventSchemaVersion: request.eventSchemaVersion,
      referenceId: String(request.referenceId ?? ''),
      webhookUrl: request.webhookUrl,
      messageSignatureKey: randomBytes(32).toString('base64'),
    };
    this.subscriptions.set(subscription.subscriptionId, subscription);
    return { ...subscription };
  }

  /** Every subscription. */
  list(): WebhookSubscription[] {
    return [...this.subscriptions.values()].map((subscription) => ({ ...subscription }));
  }

  /** One subscription, or undefined. */
  get(id: string): WebhookSubscription | undefined {
    const subscription = this.subscriptions.get(id);
    return subscription && { ...subscription };
  }

  /** Applies a PATCH (status 'Active' activates); undefined when unknown. */
  patch(id: string, changes: PatchSubscriptionRequest): WebhookSubscription | undefined {
    const subscription = this.subscriptions.get(id);
    if (!subscription) return undefined;
    if (changes.status === 'Active' && subscription.status !== 'Active') {
      subscription.status = 'Active';
      subscription.statusChangeDate = new Date().toISOString();
      subscription.statusChangeMessage = 'Activated by user';
      subscription.statusChangeUser = 'developer';
    }
    if (changes.eventIds) subscription.eventIds = [...changes.eventIds];
    if (changes.webhookUrl) subscription.webhookUrl = changes.webhookUrl;
    if (changes.referenceId !== undefined) subscription.referenceId = changes.referenceId;
    if (changes.eventSchemaVersion !== undefined)
      subscription.eventSchemaVersion = changes.eventSchemaVersion;
    return { ...subscription };
  }

  /** Deletes a subscription (deliveries stop); undefined when unknown. */
  delete(id: string): WebhookSubscription | undefined {
    const subscription = this.subscriptions.get(id);
    this.subscriptions.delete(id);
    return subscription && { ...subscription, status: 'DeactivatedByUser' };
  }

  /** Every delivery so far, oldest first. */
  deliveries(): DeliveryRecord[] {
    return this.records.map((record) => ({ ...record }));
  }

  /** Sends `eventData` as `eventId` to every active subscription to that event (asynchronously). */
  publish<E extends WebhookDelivery>(eventId: E['eventId'], eventData: E['eventData']): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.status !== 'Active' || !subscription.eventIds.includes(eventId)) continue;
      const delivery = {
        messageId: randomUUID(),
        eventId,
        eventSchemaVersion: subscription.eventSchemaVersion,
        eventInstanceOriginationDateTime: new Date().toISOString(),
        eventData,
      };
      const record: DeliveryRecord = {
        messageId: delivery.messageId,
        eventId,
        subscriptionId: subscription.subscriptionId,
        webhookUrl: subscription.webhookUrl,
        state: 'pending',
        attempts: 0,
        lastStatus: null,
      };
      this.records.push(record);
      const body = JSON.stringify(delivery);
      const task = this.deliver(
        record,
        body,
        signWebhookBody(body, subscription.messageSignatureKey),
      ).finally(() => this.pending.delete(task));
      this.pending.add(task);
    }
  }

  /** Resolves when every delivery under way has been delivered or has failed. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Stops retries and aborts deliveries under way. */
  close(): void {
    this.stop.abort();
  }

  private async deliver(record: DeliveryRecord, body: string, signature: string): Promise<void> {
    while (record.attempts < this.options.attempts && !this.stop.signal.aborted) {
      record.attempts += 1;
      try {
        const response = await fetch(record.webhookUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [MINDBODY_SIGNATURE_HEADER]: signature },
          body,
          signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.options.timeoutMs)]),
        });
        record.lastStatus = response.status;
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) {
          record.state = 'delivered';
          return;
        }
      } catch {
        record.lastStatus = null;
      }
      if (record.attempts < this.options.attempts)
        await wait(this.options.retryDelayMs, this.stop.signal);
    }
    record.state = 'failed';
  }
}

function safeUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
