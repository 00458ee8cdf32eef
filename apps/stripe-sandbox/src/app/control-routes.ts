import type { IncomingMessage } from 'node:http';
import type { BillingFlows } from './billing-flows';
import { readBody } from './form-body';
import { newRestrictedKey, type RestrictedKeyPermissions } from './restricted-keys';
import { invalidRequest, resourceMissing } from './stripe-error';
import type { StripeEvent } from './stripe-objects';
import type { StripeStore } from './stripe-store';
import type { Reply } from './stripe-sandbox';
import type { WebhookDispatcher } from './webhook-dispatcher';

/** Largest control request body, bytes. */
const MAX_CONTROL_BODY = 64 * 1024;
/** Most copies of one event `deliver` sends, most events in a batch, most members seeded at once. */
export const CONTROL_LIMITS = { times: 10, batch: 100, members: 20_000 } as const;

const ok = (body: unknown): Reply => ({ status: 200, body });

/**
 * The sandbox's own control API under `/_sandbox` (not Stripe's; no key needed), JSON in and out,
 * refusals in Stripe's error shape (docs/stripe.md#control-routes):
 *
 * - `GET /webhook_endpoints`, `POST /webhook_endpoints` `{url, secret?}` → `{id, url, secret}`
 * - `GET /deliveries` → every delivery `{eventId, eventType, endpointId, url, state, attempts, lastStatus}`
 * - `GET /events` → every event, newest first
 * - `POST /events/{evt}/deliver` `{times?: 1–10}` → sends the event again, `times` copies (default 2)
 * - `POST /events/deliver` `{ids: [evt…], order?: 'reverse' | 'given'}` → sends a batch, by default
 *   newest first (out of order)
 * - `POST /subscriptions/{sub}/fail_next_payment` → the renewal's open invoice (invoice.payment_failed, past_due)
 * - `POST /subscriptions/{sub}/end_period` → renews (invoice.paid) or ends a cancelling subscription
 * - `POST /invoices/{in}/pay` → the paid invoice (invoice.paid, subscription active again)
 * - `POST /idle` → answers once no webhook delivery is pending
 * - `POST /members` `{email, name, amount, currency?, metadata?}` (the customer's metadata, as
 *   the Dashboard sets it: at most 50 keys of up to 40 characters, string values of up to 500) or `{count, seed?, amount?, currency?}` →
 *   a gym's member: a customer with an active monthly subscription of `amount` cents (default
 *   4,900, AUD) and its paid first invoice; `count` seeds 1–20,000 of them
 *   (`member<seed>-<n>@example.com`) → the subscriptions (ids only when `count` is given)
 * - `POST /subscriptions/{sub}/cancel` → cancels at once (customer.subscription.deleted)
 * - `POST /restricted_keys` `{permissions: {customer: 'read', subscription: 'write', …}}` →
 *   `{id: 'rk_test_…', permissions}`: a key the API accepts from now on, refusing with Stripe's
 *   403 what its permissions do not allow (the Dashboard's "Create restricted key")
 * - `DELETE /webhook_endpoints/{we}` → `{id, deleted: true}` (the Dashboard's "Delete destination")
 */
export class SandboxControlRoutes {
  constructor(
    private readonly store: StripeStore,
    private readonly billing: BillingFlows,
    private readonly webhooks: WebhookDispatcher,
    private readonly restrictedKeys: Record<string, RestrictedKeyPermissions>,
  ) {}

  /** Serves `path` (below `/_sandbox`). @throws StripeRequestError for a bad request */
  async serve(request: IncomingMessage, path: string): Promise<Reply> {
    const method = request.method ?? 'GET';
    const body = method === 'POST' ? await readJson(request) : {};
    const parts = path.split('/').filter(Boolean);
    const route = `${method} /${parts.map((part, index) => (index % 2 === 1 && (parts.length > 2 || method === 'DELETE') ? ':id' : part)).join('/')}`;
    const id = parts[1];
    switch (route) {
      case 'GET /webhook_endpoints':
        return ok(this.webhooks.listEndpoints());
      case 'POST /webhook_endpoints':
        try {
          return ok(
            this.webhooks.addEndpoint({
              url: String(body.url),
              secret: body.secret as string | undefined,
            }),
          );
        } catch (cause) {
          throw invalidRequest((cause as Error).message, 'url');
        }
      case 'DELETE /webhook_endpoints/:id':
        if (!this.webhooks.removeEndpoint(id)) throw resourceMissing('webhook_endpoint', id);
        return ok({ id, object: 'webhook_endpoint', deleted: true });
      case 'POST /restricted_keys': {
        const created = newRestrictedKey(body.permissions);
        this.restrictedKeys[created.key] = created.permissions;
        return ok({ id: created.key, permissions: created.permissions });
      }
      case 'GET /deliveries':
        return ok(this.webhooks.deliveries());
      case 'GET /events':
        return ok(this.store.all('event'));
      case 'POST /events/:id/deliver': {
        const times = body.times === undefined ? 2 : Number(body.times);
        if (!Number.isInteger(times) || times < 1 || times > CONTROL_LIMITS.times)
          throw invalidRequest(
            `times must be an integer from 1 to ${CONTROL_LIMITS.times}`,
            'times',
          );
        this.webhooks.deliver(this.event(id), times);
        return ok({ delivered: id, times });
      }
      case 'POST /events/deliver': {
        if (
          !Array.isArray(body.ids) ||
          body.ids.length === 0 ||
          body.ids.length > CONTROL_LIMITS.batch
        )
          throw invalidRequest(`ids must list 1 to ${CONTROL_LIMITS.batch} event ids`, 'ids');
        const events = body.ids.map((eventId) => this.event(String(eventId)));
        if (body.order !== undefined && body.order !== 'reverse' && body.order !== 'given')
          throw invalidRequest("order must be 'reverse' or 'given'", 'order');
        const sent = body.order === 'given' ? events : [...events].reverse();
        for (const event of sent) this.webhooks.deliver(event);
        return ok({ delivered: sent.map((event) => event.id) });
      }
      case 'POST /subscriptions/:id/fail_next_payment':
        return ok(this.billing.failNextPayment(id));
      case 'POST /subscriptions/:id/end_period':
        return ok(this.billing.endPeriod(id));
      case 'POST /invoices/:id/pay':
        return ok(this.billing.payInvoice(id));
      case 'POST /members':
        return ok(this.seedMembers(body));
      case 'POST /subscriptions/:id/cancel':
        return ok(this.billing.cancelNow(id));
      case 'POST /idle':
        await this.webhooks.idle();
        return ok({ idle: true });
      default:
        throw invalidRequest(`Unknown control route ${method} /_sandbox${path}`);
    }
  }

  private seedMembers(body: Record<string, unknown>): unknown {
    const amount = body.amount === undefined ? 4_900 : Number(body.amount);
    if (!Number.isInteger(amount) || amount < 0 || amount > 99_999_999)
      throw invalidRequest('amount must be an integer number of cents', 'amount');
    const currency = body.currency === undefined ? 'aud' : String(body.currency);
    if (!/^[a-zA-Z]{3}$/.test(currency))
      throw invalidRequest('currency must be a three-letter ISO code', 'currency');
    if (body.count === undefined) {
      if (typeof body.email !== 'string' || typeof body.name !== 'string')
        throw invalidRequest('email and name are required (or count)', 'email');
      return this.billing.seedMember({
        email: body.email,
        name: body.name,
        amount,
        currency,
        ...(body.metadata === undefined ? {} : { metadata: customerMetadata(body.metadata) }),
      });
    }
    const count = Number(body.count);
    if (!Number.isInteger(count) || count < 1 || count > CONTROL_LIMITS.members)
      throw invalidRequest(`count must be an integer from 1 to ${CONTROL_LIMITS.members}`, 'count');
    const seed = body.seed === undefined ? 1 : String(body.seed);
    const ids: string[] = [];
    for (let n = 1; n <= count; n += 1)
      ids.push(
        this.billing.seedMember({
          email: `member${seed}-${n}@example.com`,
          name: `Member ${seed}-${n}`,
          amount,
          currency,
        }).id,
      );
    return { subscriptions: ids };
  }

  private event(id: string): StripeEvent {
    const event = this.store.find(id) as StripeEvent | undefined;
    if (event?.object !== 'event') throw resourceMissing('event', id);
    return event;
  }
}

/**
 * A customer's metadata as Stripe takes it (docs.stripe.com/api/metadata: up to 50 keys, key names
 * up to 40 characters, values strings of up to 500 characters).
 * @throws StripeRequestError 400 otherwise
 */
function customerMetadata(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidRequest('metadata must be an object of strings', 'metadata');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 50) throw invalidRequest('metadata can have at most 50 keys', 'metadata');
  for (const [key, item] of entries)
    if (key.length > 40 || typeof item !== 'string' || item.length > 500)
      throw invalidRequest(
        `metadata[${key}]: keys up to 40 characters, values strings of up to 500`,
        'metadata',
      );
  return Object.fromEntries(entries) as Record<string, string>;
}

/** A JSON object body ({} when empty). @throws StripeRequestError 400 when not a JSON object */
async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(request, MAX_CONTROL_BODY);
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest('The body must be JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidRequest('The body must be a JSON object.');
  return value as Record<string, unknown>;
}
