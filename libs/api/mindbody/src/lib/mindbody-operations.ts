/**
 * Every Mindbody operation the client can send, by its official operationId: the one list
 * `MindbodyClient` builds its requests from, so the client cannot send an operation that is not
 * here. apps/mindbody-sandbox's contract (`src/contract/mindbody-contract.openapi.json`) must list
 * each one with the same method and path (its tests fail otherwise).
 *
 * Sources: Mindbody's official SDKs (GitHub mindbody/Mindbody-API-SDKs, PublicAPI and WebhooksAPI,
 * python `doc/controllers/*.md`) — the operation pages named beside each entry.
 */
export const MINDBODY_OPERATIONS = {
  /** user-token.md#issue-token */
  issueToken: { api: 'public', method: 'POST', path: '/usertoken/issue' },
  /** site.md#get-sites */
  getSites: { api: 'public', method: 'GET', path: '/site/sites' },
  /** site.md#get-activation-code */
  getActivationCode: { api: 'public', method: 'GET', path: '/site/activationcode' },
  /** client.md#get-clients */
  getClients: { api: 'public', method: 'GET', path: '/client/clients' },
  /** client.md#get-client-contracts */
  getClientContracts: { api: 'public', method: 'GET', path: '/client/clientcontracts' },
  /** client.md#get-client-purchases */
  getClientPurchases: { api: 'public', method: 'GET', path: '/client/clientpurchases' },
  /** client.md#get-client-visits */
  getClientVisits: { api: 'public', method: 'GET', path: '/client/clientvisits' },
  /** client.md#update-client-contract-autopays */
  updateClientContractAutopays: {
    api: 'public',
    method: 'POST',
    path: '/client/updateclientcontractautopays',
  },
  /** client.md#get-client-referral-types */
  getClientReferralTypes: { api: 'public', method: 'GET', path: '/client/clientreferraltypes' },
  /** client.md#get-required-client-fields */
  getRequiredClientFields: { api: 'public', method: 'GET', path: '/client/requiredclientfields' },
  /**
   * client.md#add-client. Not repeatable: each call makes a client (the caller looks the email up
   * with getClients before trying again).
   */
  addClient: { api: 'public', method: 'POST', path: '/client/addclient', repeatable: false },
  /** subscriptions.md#get-subscriptions */
  getSubscriptions: { api: 'webhooks', method: 'GET', path: '/subscriptions' },
  /**
   * subscriptions.md#create-subscription. Not repeatable: each call makes a subscription, and only
   * its reply carries the signature key.
   */
  createSubscription: {
    api: 'webhooks',
    method: 'POST',
    path: '/subscriptions',
    repeatable: false,
  },
  /** subscriptions.md#get-subscription */
  getSubscription: { api: 'webhooks', method: 'GET', path: '/subscriptions/{subscriptionId}' },
  /** subscriptions.md#patch-subscription */
  patchSubscription: { api: 'webhooks', method: 'PATCH', path: '/subscriptions/{subscriptionId}' },
  /** subscriptions.md#delete-subscription */
  deleteSubscription: {
    api: 'webhooks',
    method: 'DELETE',
    path: '/subscriptions/{subscriptionId}',
  },
} as const satisfies Record<string, MindbodyOperation>;

/** One operation: which API, the HTTP method, the path under that API's base URL. */
export interface MindbodyOperation {
  /** 'public': under the Public API v6 base (`…/public/v6`); 'webhooks': under the Webhooks base (`…/api/v1`). */
  api: 'public' | 'webhooks';
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path under the API's base; `{name}` is a path parameter. */
  path: string;
  /**
   * false for a call that makes something each time it is sent (a POST Mindbody keeps no
   * idempotency key for): `MindbodyClient` retries it only after a 429, which Mindbody answers
   * before doing anything, never after a timeout, a lost connection or a 5xx, after which the
   * call may have taken effect (its caller looks before trying again). Default true.
   */
  repeatable?: boolean;
}

/** The official operationId of an operation the client sends. */
export type MindbodyOperationId = keyof typeof MINDBODY_OPERATIONS;

/** The path an operation has on Mindbody's hosts: `/public/v6…` or `/api/v1…` (as the contract writes it). */
export function mindbodyOperationPath(operation: MindbodyOperation): string {
  return `${operation.api === 'public' ? '/public/v6' : '/api/v1'}${operation.path}`;
}
