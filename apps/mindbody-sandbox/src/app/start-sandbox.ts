import type { AddressInfo } from 'node:net';
import type { FaultRule } from './fault-switches';
import {
  MindbodySandbox,
  PUBLIC_API_BASE,
  WEBHOOKS_API_BASE,
  type ContractViolation,
  type SandboxOptions,
  type SandboxSiteOptions,
} from './sandbox-server';
import type {
  AutopayWrite,
  NewSandboxClient,
  NewSandboxPayment,
  NewSandboxVisit,
  SandboxClientChanges,
  StoreRefusal,
} from './sandbox-store';
import type { DeliveryRecord } from './webhook-dispatcher';
import type {
  Client,
  ClientContract,
  ClientPurchaseRecord,
  Visit,
  CreatedSubscription,
} from '@grove/api-mindbody';

/** `startMindbodySandbox` settings: the sandbox's options plus where to listen. */
export interface StartSandboxOptions extends Partial<SandboxOptions> {
  /** Port, 0 = any free port (default 0). */
  port?: number;
  /** Interface (default 127.0.0.1). */
  host?: string;
}

/** In-process control of one site's data (the control API's client routes with `?siteId=`). */
export interface SandboxSiteControl {
  addClient(client: NewSandboxClient): Client;
  renumberClient(id: string, newId: string): Client | StoreRefusal;
  updateClient(id: string, changes: SandboxClientChanges): Client | undefined;
  cancelMembership(id: string): ClientContract | undefined;
  recordPayment(clientId: string, payment?: NewSandboxPayment): ClientPurchaseRecord | StoreRefusal;
  recordVisit(clientId: string, visit?: NewSandboxVisit): Visit | StoreRefusal;
  suspendMembership(id: string): ClientContract | undefined;
  resumeMembership(id: string): ClientContract | undefined;
  clients(): readonly Client[];
  contracts(clientId: string): ClientContract[];
}

/** In-process control of a running sandbox (the same operations as its `/_sandbox` HTTP API). */
export interface SandboxControl {
  /** One site's data (the methods below act on the main site, `options.siteId`). */
  site(siteId: string): SandboxSiteControl;
  /** Adds (or reseeds) a site; not activated with `activated: false`. */
  addSite(site: SandboxSiteOptions): { siteId: string; activated: boolean; clientCount: number };
  /** Activates (or deactivates) the developer account at a site, as its owner's activation link does. */
  setSiteActivated(siteId: string, activated?: boolean): boolean;
  /** Every site. */
  sites(): { siteId: string; activated: boolean; clientCount: number }[];
  /** Reseeds clients, contracts, purchases and autopay writes (faults and subscriptions stay). */
  reset(options?: { clientCount?: number; seed?: number }): { clientCount: number };
  /** Adds a client or prospect (modified now); fires `client.created`. */
  addClient(client: NewSandboxClient): Client;
  /** Changes a client (modified now); fires `client.updated`. Undefined when unknown. */
  updateClient(id: string, changes: SandboxClientChanges): Client | undefined;
  /**
   * Gives a client a new Id (UpdateClient's `NewId`; its UniqueId stays), contracts and purchases
   * following; fires `client.updated`. @returns the client, or the refusal (404, 400 Id taken)
   */
  renumberClient(id: string, newId: string): Client | StoreRefusal;
  /**
   * Sells the client a membership (autopay `amount` dollars) without changing its profile
   * (LastModifiedDateTime stays); fires `clientContract.updated`. @returns the contract, or the refusal
   */
  sellMembership(clientId: string, amount: number): ClientContract | StoreRefusal;
  /**
   * Merges client `removeId` into `keepId` (Mindbody's merge tool): contracts and purchases move,
   * the removed profile is gone; fires `clientProfileMerger.created`. @returns the kept client, or the refusal
   */
  mergeClients(keepId: string, removeId: string): Client | StoreRefusal;
  /** Terminates the client's membership; fires `clientMembershipAssignment.cancelled`. Undefined without one. */
  cancelMembership(id: string): ClientContract | undefined;
  /**
   * Records a paid sale for the client (default: one charge of its running autopay); fires
   * `clientSale.created`; the client's LastModifiedDateTime stays (as in Mindbody).
   * @returns the purchase, or the refusal (404 unknown client, 400 nothing to charge)
   */
  recordPayment(clientId: string, payment?: NewSandboxPayment): ClientPurchaseRecord | StoreRefusal;
  /** Records a visit of the client (signed in unless told otherwise); GetClientVisits lists it. */
  recordVisit(clientId: string, visit?: NewSandboxVisit): Visit | StoreRefusal;
  /** Every purchase of the client, oldest sale first. */
  purchases(clientId: string): ClientPurchaseRecord[];
  /** Suspends the running membership (autopay and Status 'Suspended'); fires `clientContract.updated`. Undefined without one. */
  suspendMembership(id: string): ClientContract | undefined;
  /** Resumes a suspended membership (autopay and Status 'Active'); fires `clientContract.updated`. Undefined without one. */
  resumeMembership(id: string): ClientContract | undefined;
  /** Every client in paging order. */
  clients(): readonly Client[];
  /** A client's contracts. */
  contracts(clientId: string): ClientContract[];
  /** Autopay writes received, oldest first (Amount in dollars). */
  autopayWrites(): AutopayWrite[];
  /** Forgets the autopay writes. */
  clearAutopayWrites(): void;
  /** Adds a fault switch (see FaultRule); throws TypeError when invalid. */
  addFault(rule: FaultRule): FaultRule;
  /** Active fault switches. */
  faults(): FaultRule[];
  /** Removes every fault switch. */
  clearFaults(): void;
  /** Expires every staff token issued so far. */
  expireTokens(): void;
  /** Requests received per `METHOD /path` since start or the last reset. */
  requestCounts(): Record<string, number>;
  /** Requests the contract accepted, per official operationId, since start or the last reset. */
  operationCounts(): Record<string, number>;
  /** Requests the contract refused (404 / 400), oldest first. */
  contractViolations(): ContractViolation[];
  /** Replies the contract refused (with the `checkReplies` option), oldest first. */
  replyViolations(): ContractViolation[];
  /** Forgets the recorded contract violations (requests and replies). */
  clearContractViolations(): void;
  /** Every webhook subscription with its messageSignatureKey (as it was created). */
  subscriptions(): CreatedSubscription[];
  /** Deactivates a subscription as Mindbody's admins can ('DeactivatedByAdmin' by default). */
  deactivateSubscription(subscriptionId: string, status?: CreatedSubscription['status']): boolean;
  /** Webhook deliveries so far. */
  deliveries(): DeliveryRecord[];
  /** Resolves when every webhook delivery under way has finished (delivered or failed). */
  flushWebhooks(): Promise<void>;
}

/** A running sandbox. */
export interface RunningSandbox {
  /** Public API v6 base URL: `http://host:port/public/v6` (a MindbodyClient's `baseUrl`). */
  url: string;
  /** Webhooks API v1 base URL: `http://host:port/api/v1` (a MindbodyClient's `webhooksBaseUrl`). */
  webhooksUrl: string;
  /** Control API base URL: `http://host:port/_sandbox`. */
  controlUrl: string;
  /** The settings in use (API key, site, staff login, …). */
  options: SandboxOptions;
  control: SandboxControl;
  /** Stops webhook deliveries, drops open connections and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a Mindbody sandbox in-process (for integration tests, benchmarks and `npm start`).
 * @example const sandbox = await startMindbodySandbox({ port: 0, clientCount: 10_000 });
 *          new MindbodyClient({ baseUrl: sandbox.url, apiKey: sandbox.options.apiKey, siteId: '-99' })
 * @throws the listen error (e.g. EADDRINUSE)
 */
export async function startMindbodySandbox(
  options: StartSandboxOptions = {},
): Promise<RunningSandbox> {
  const { port = 0, host = '127.0.0.1', ...sandboxOptions } = options;
  const sandbox = new MindbodySandbox(sandboxOptions);
  const server = await sandbox.listen(port, host);
  const address = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const siteControl = (siteId: string): SandboxSiteControl => {
    const store = () => sandbox.site(siteId).store;
    return {
      addClient: (client) => store().addClient(client),
      renumberClient: (id, newId) => store().renumberClient(id, newId),
      updateClient: (id, changes) => store().updateClient(id, changes),
      cancelMembership: (id) => store().cancelMembership(id),
      recordPayment: (clientId, payment) => store().recordPayment(clientId, payment),
      recordVisit: (clientId, visit) => store().recordVisit(clientId, visit),
      suspendMembership: (id) => store().suspendMembership(id),
      resumeMembership: (id) => store().resumeMembership(id),
      clients: () => store().all(),
      contracts: (clientId) => store().contractsOf(clientId),
    };
  };
  const control: SandboxControl = {
    site: siteControl,
    addSite: (site) => {
      const added = sandbox.addSite(site);
      return { siteId: added.siteId, activated: added.activated, clientCount: added.store.size };
    },
    setSiteActivated: (siteId, activated) => sandbox.setActivated(siteId, activated),
    sites: () => sandbox.listSites(),
    reset: (reset) => sandbox.reset(reset),
    addClient: (client) => sandbox.store.addClient(client),
    renumberClient: (id, newId) => sandbox.store.renumberClient(id, newId),
    sellMembership: (clientId, amount) => sandbox.store.sellMembership(clientId, amount),
    mergeClients: (keepId, removeId) => sandbox.store.mergeClients(keepId, removeId),
    updateClient: (id, changes) => sandbox.store.updateClient(id, changes),
    cancelMembership: (id) => sandbox.store.cancelMembership(id),
    recordPayment: (clientId, payment) => sandbox.store.recordPayment(clientId, payment),
    recordVisit: (clientId, visit) => sandbox.store.recordVisit(clientId, visit),
    purchases: (clientId) =>
      sandbox.store.purchasesOf(clientId, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY),
    suspendMembership: (id) => sandbox.store.suspendMembership(id),
    resumeMembership: (id) => sandbox.store.resumeMembership(id),
    clients: () => sandbox.store.all(),
    contracts: (clientId) => sandbox.store.contractsOf(clientId),
    autopayWrites: () => sandbox.autopayWrites(),
    clearAutopayWrites: () => {
      for (const site of sandbox.listSites()) sandbox.site(site.siteId).store.clearAutopayWrites();
    },
    addFault: (rule) => sandbox.addFault(rule),
    faults: () => sandbox.faults.list(),
    clearFaults: () => sandbox.faults.clear(),
    expireTokens: () => sandbox.expireTokens(),
    requestCounts: () => sandbox.requestCounts(),
    operationCounts: () => sandbox.operationCounts(),
    contractViolations: () => sandbox.contractViolations(),
    replyViolations: () => sandbox.replyViolations(),
    clearContractViolations: () => sandbox.clearContractViolations(),
    subscriptions: () => sandbox.webhooks.listWithKeys(),
    deactivateSubscription: (id, status) => sandbox.webhooks.deactivate(id, status),
    deliveries: () => sandbox.deliveries(),
    flushWebhooks: () => sandbox.webhooks.flush(),
  };
  return {
    url: `${origin}${PUBLIC_API_BASE}`,
    webhooksUrl: `${origin}${WEBHOOKS_API_BASE}`,
    controlUrl: `${origin}/_sandbox`,
    options: sandbox.options,
    control,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.webhooks.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
