import type { StripeOperationId } from '../contract/stripe-operations';
import { newId } from './ids';
import { StripeRequestError, invalidRequest } from './stripe-error';

/**
 * The resources a restricted key's permissions name (https://docs.stripe.com/keys/restricted-api-keys),
 * by the names Stripe's permission errors use (`rak_<resource>_read` / `_write`): Prices are
 * `plan`, as in Stripe's `rak_plan_write`.
 */
export type RestrictedResource =
  | 'customer'
  | 'subscription'
  | 'coupon'
  | 'invoice'
  | 'product'
  | 'plan'
  | 'checkout_session'
  | 'customer_portal'
  | 'event';

/** Every resource a restricted key can name here. */
export const RESTRICTED_RESOURCES: readonly RestrictedResource[] = [
  'customer',
  'subscription',
  'coupon',
  'invoice',
  'product',
  'plan',
  'checkout_session',
  'customer_portal',
  'event',
];

/** A restricted key's access to one resource: Stripe's Read or Write (Write implies Read). */
export type RestrictedAccess = 'read' | 'write';

/** A restricted key (`rk_test_…`) and what it may do; a resource it does not name is None. */
export type RestrictedKeyPermissions = Partial<Record<RestrictedResource, RestrictedAccess>>;

/** The resource each operation acts on; GET needs read, POST write (Stripe's mapping). */
const RESOURCE_OF: Record<StripeOperationId, RestrictedResource> = {
  PostCustomers: 'customer',
  GetCustomersCustomer: 'customer',
  GetCustomers: 'customer',
  PostCustomersCustomerBalanceTransactions: 'customer',
  PostCheckoutSessions: 'checkout_session',
  GetCheckoutSessionsSession: 'checkout_session',
  PostBillingPortalSessions: 'customer_portal',
  GetSubscriptions: 'subscription',
  GetSubscriptionsSubscriptionExposedId: 'subscription',
  PostSubscriptionsSubscriptionExposedId: 'subscription',
  GetInvoices: 'invoice',
  PostInvoicesCreatePreview: 'invoice',
  PostProducts: 'product',
  PostPrices: 'plan',
  GetPrices: 'plan',
  PostCoupons: 'coupon',
  GetEventsId: 'event',
};

/**
 * What an operation needs of a restricted key. `create_preview` is a POST that writes nothing:
 * it needs Invoices Read (an assumption: Stripe's permission table for it is not public; a preview
 * creates no object).
 */
export function requiredAccess(operationId: StripeOperationId): {
  resource: RestrictedResource;
  access: RestrictedAccess;
} {
  const access =
    operationId.startsWith('Get') || operationId === 'PostInvoicesCreatePreview' ? 'read' : 'write';
  return { resource: RESOURCE_OF[operationId], access };
}

/** The restricted resource of an expanded object's `object` value, if it is one. */
export function resourceOfObject(object: string): RestrictedResource | undefined {
  const resources: Record<string, RestrictedResource> = {
    customer: 'customer',
    subscription: 'subscription',
    coupon: 'coupon',
    discount: 'coupon',
    invoice: 'invoice',
    product: 'product',
    price: 'plan',
    'checkout.session': 'checkout_session',
  };
  return resources[object];
}

/**
 * Refuses a request a restricted key may not make, as Stripe does: 403, `invalid_request_error`,
 * naming the permission that would allow it. @throws StripeRequestError 403
 */
export function checkPermission(
  key: string,
  permissions: RestrictedKeyPermissions,
  resource: RestrictedResource,
  access: RestrictedAccess,
  account: string,
): void {
  const granted = permissions[resource];
  if (granted === 'write' || granted === access) return;
  throw new StripeRequestError(403, {
    type: 'invalid_request_error',
    message:
      `The provided key '${maskKey(key)}' does not have the required permissions for this endpoint on account '${account}'. ` +
      `Having the 'rak_${resource}_${access}' permission would allow this request to continue.`,
  });
}

/** A key as Stripe shows it in messages: its prefix, stars, its last 4 characters. */
export function maskKey(key: string): string {
  const prefix = /^(rk|sk)_(test|live)_/.exec(key)?.[0] ?? key.slice(0, 8);
  return `${prefix}${'*'.repeat(Math.max(4, key.length - prefix.length - 4))}${key.slice(-4)}`;
}

/**
 * A new restricted key as the Dashboard's "Create restricted key" makes one (`rk_test_` and
 * base-62 characters), after checking the permissions asked for: each a known resource with
 * `read` or `write`, at least one. @throws StripeRequestError 400 naming the bad entry
 */
export function newRestrictedKey(permissions: unknown): {
  key: string;
  permissions: RestrictedKeyPermissions;
} {
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions))
    throw invalidRequest('permissions must be an object of resource: read | write', 'permissions');
  const entries = Object.entries(permissions);
  if (entries.length === 0)
    throw invalidRequest('permissions must name at least one resource', 'permissions');
  const checked: RestrictedKeyPermissions = {};
  for (const [resource, access] of entries) {
    if (!RESTRICTED_RESOURCES.includes(resource as RestrictedResource))
      throw invalidRequest(`Unknown resource ${resource}`, `permissions[${resource}]`);
    if (access !== 'read' && access !== 'write')
      throw invalidRequest(`${resource} must be read or write`, `permissions[${resource}]`);
    checked[resource as RestrictedResource] = access;
  }
  return { key: newId('rk_test'), permissions: checked };
}
