import { randomBytes, randomUUID } from 'node:crypto';
import {
  MINDBODY_EVENT_IDS,
  MINDBODY_SIGNATURE_HEADER,
  signWebhookBody,
  type CreatedSubscription,
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
  /**
   * Deliveries in a row that end 'failed' before the subscription is deactivated
   * ('DeactivatedTooManyFailedMessageDeliveryAttempts'; default 5).
   */
  deactivateAfterFailedDeliveries?: number;
}

type ValidationResult = { ok: true } | { ok: false; message: string };

/** A subscription as the sandbox keeps it: with its key (only creation returns it). */
type StoredSubscription = CreatedSubscription & { failedInARow: number };

/**
 * The Webhooks API's subscriptions — of the developer account: they name no site and receive the
 * events of every activated site — and the deliveries of events to active subscriptions: each
 * delivery is POSTed to `webhookUrl` with `X-Mindbody-Signature: sha256=<base64 HMAC>` of the raw
 * body keyed with the subscription's `messageSignatureKey`, retried on non-2xx or network errors.
 * Activation first sends a HEAD request to the webhookUrl and refuses a URL that does not answer
 * 2xx; a subscription whose deliveries keep failing is deactivated
 * ('DeactivatedTooManyFailedMessageDeliveryAttempts') until it is activated again.
 */
export class WebhookDispatcher {
  private readonly subscriptions = new Map<string, StoredSubscription>();
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

  /** Creates a subscription in 'PendingActivation' with a new messageSignatureKey (returned only here). */
  create(request: CreateSubscriptionRequest): CreatedSubscription {
    const subscription: StoredSubscription = {
      subscriptionId: randomUUID(),
      status: 'PendingActivation',
      subscriptionCreationDateTime: new Date().toISOString(),
      statusChangeDate: null,
      statusChangeMessage: null,
      statusChangeUser: null,
      eventIds: [...request.eventIds],
      eventSchemaVersion: request.eventSchemaVersion,
      referenceId: request.referenceId ?? null,
      webhookUrl: request.webhookUrl,
      messageSignatureKey: randomBytes(32).toString('base64'),
      failedInARow: 0,
    };
    this.subscriptions.set(subscription.subscriptionId, subscription);
    return withoutState(subscription);
  }

  /** Every subscription, as the Webhooks API lists them (without keys). */
  list(): WebhookSubscription[] {
    return [...this.subscriptions.values()].map(published);
  }

  /** Every subscription with its messageSignatureKey (the sandbox's own view, for tests). */
  listWithKeys(): CreatedSubscription[] {
    return [...this.subscriptions.values()].map(withoutState);
  }

  /** One subscription (without its key), or undefined. */
  get(id: string): WebhookSubscription | undefined {
    const subscription = this.subscriptions.get(id);
    return subscription && published(subscription);
  }

  /**
   * Applies a PATCH; status 'Active' (re)activates once the webhookUrl answers a HEAD request
   * with 2xx.
   * @returns the subscription (without its key); undefined when unknown; `{refused}` when the
   *   HEAD check failed (nothing changed)
   */
  async patch(
    id: string,
    changes: PatchSubscriptionRequest,
  ): Promise<WebhookSubscription | { refused: string } | undefined> {
    const subscription = this.subscriptions.get(id);
    if (!subscription) return undefined;
    const url = changes.webhookUrl ?? subscription.webhookUrl;
    if (changes.status === 'Active') {
      const check = await this.headCheck(url);
      if (check !== null) return { refused: check };
    }
    if (changes.status === 'Active' && subscription.status !== 'Active') {
      subscription.status = 'Active';
      subscription.statusChangeDate = new Date().toISOString();
      subscription.statusChangeMessage = 'Activated by user';
      subscription.statusChangeUser = 'developer';
      subscription.failedInARow = 0;
    }
    if (changes.eventIds) subscription.eventIds = [...changes.eventIds];
    if (changes.webhookUrl) subscription.webhookUrl = changes.webhookUrl;
    if (changes.referenceId !== undefined) subscription.referenceId = changes.referenceId;
    if (changes.eventSchemaVersion !== undefined)
      subscription.eventSchemaVersion = changes.eventSchemaVersion;
    return published(subscription);
  }

  /** Deletes a subscription (deliveries stop); undefined when unknown. */
  delete(id: string): WebhookSubscription | undefined {
    const subscription = this.subscriptions.get(id);
    this.subscriptions.delete(id);
    return subscription && { ...published(subscription), status: 'DeactivatedByUser' };
  }

  /** Deactivates a subscription as Mindbody's admins can ('DeactivatedByAdmin'); false when unknown. */
  deactivate(id: string, status: WebhookSubscription['status'] = 'DeactivatedByAdmin'): boolean {
    const subscription = this.subscriptions.get(id);
    if (!subscription) return false;
    subscription.status = status;
    subscription.statusChangeDate = new Date().toISOString();
    subscription.statusChangeMessage = `Deactivated (${status})`;
    subscription.statusChangeUser = 'Mindbody';
    return true;
  }

  /** null when `url` answers a HEAD request with 2xx, else why not. */
  private async headCheck(url: string): Promise<string | null> {
    try {
      const response = await fetch(url, {
        method: 'HEAD',
        signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.options.timeoutMs)]),
      });
      return response.ok
        ? null
        : `The webhookUrl answered the validation HEAD request with ${response.status}`;
    } catch {
      return 'The webhookUrl did not answer the validation HEAD request';
    }
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
        subscription,
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

  private async deliver(
    subscription: StoredSubscription,
    record: DeliveryRecord,
    body: string,
    signature: string,
  ): Promise<void> {
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
          subscription.failedInARow = 0;
          return;
        }
      } catch {
        record.lastStatus = null;
      }
      if (record.attempts < this.options.attempts)
        await wait(this.options.retryDelayMs, this.stop.signal);
    }
    record.state = 'failed';
    subscription.failedInARow += 1;
    if (
      subscription.status === 'Active' &&
      subscription.failedInARow >= (this.options.deactivateAfterFailedDeliveries ?? 5)
    )
      this.deactivate(
        subscription.subscriptionId,
        'DeactivatedTooManyFailedMessageDeliveryAttempts',
      );
  }
}

/** A stored subscription as the Webhooks API shows it: no key, no delivery state. */
function published(subscription: StoredSubscription): WebhookSubscription {
  const { messageSignatureKey: _key, failedInARow: _failed, ...shown } = subscription;
  return shown;
}

/** A stored subscription with its key, without the delivery state. */
function withoutState(subscription: StoredSubscription): CreatedSubscription {
  const { failedInARow: _failed, ...shown } = subscription;
  return shown;
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
