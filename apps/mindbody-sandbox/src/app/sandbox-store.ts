import type {
  Client,
  ClientContract,
  ClientContractEventData,
  ClientEventData,
  ClientPurchaseRecord,
  ClientSaleEventData,
  MembershipCancelledEventData,
  ProfileMergerEventData,
  UpdateClientContractAutopaysRequest,
  Visit,
} from '@grove/api-mindbody';
import {
  FIRST_CLIENT_ID,
  FIRST_CONTRACT_ID,
  FIRST_SALE_ID,
  SANDBOX_PLANS,
  autopayEvent,
  barcodeOf,
  membershipContract,
  purchaseRecord,
  seedSite,
  type SeedOptions,
} from './seed';

/** One `POST /client/updateclientcontractautopays` the sandbox accepted (read back by tests). */
export interface AutopayWrite {
  /** When the sandbox received it (ISO). */
  at: string;
  /** The site it was sent to. */
  SiteId: string;
  ClientContractId: number;
  /** The client holding the contract (from the contract: the request names none). */
  ClientId: string;
  /** Dollars: the new autopay amount. */
  Amount: number;
  /**
   * Dollars before the change, of what the write changes: the contract's NormalAutoPay, or with
   * ProductId that product's item alone (before tax), so Amount − PreviousAmount is the change.
   */
  PreviousAmount: number;
  AutopayStartDate: string;
  AutopayEndDate: string | null;
  /** The product the request named, or null (a one-product contract). */
  ProductId: number | null;
}

/** Body of the control API's "add a client": Mindbody field names; `NormalAutoPay` adds a membership. */
export interface NewSandboxClient {
  FirstName: string;
  LastName: string;
  Email?: string | null;
  MobilePhone?: string | null;
  IsProspect?: boolean;
  ReferredBy?: string | null;
  /** Dollars: gives the (non-prospect) client an active membership with this autopay (before tax). */
  NormalAutoPay?: number;
  /** With NormalAutoPay: the contract also bills the add-on (two products). */
  AddOn?: boolean;
  /** With NormalAutoPay: the tax rate of its items, e.g. 0.1 (default 0). */
  TaxRate?: number;
}

/** Fields the control API's "update a client" may change. */
export type SandboxClientChanges = Partial<
  Pick<
    Client,
    | 'FirstName'
    | 'LastName'
    | 'Email'
    | 'MobilePhone'
    | 'IsProspect'
    | 'ReferredBy'
    | 'Status'
    | 'Active'
  >
>;

/** Body of the control API's "record a payment" (dollars); every field optional. */
export interface NewSandboxPayment {
  /** Dollars paid (default: the NormalAutoPay of the client's contract with running autopay). */
  Amount?: number;
  /** The item (default: '<contract name> (autopay)'). */
  Description?: string;
  /** When it was paid (ISO; default now). */
  SaleDateTime?: string;
}

/** A visit a test records (`POST /_sandbox/clients/{id}/visits`); every field optional. */
export interface NewSandboxVisit {
  /** When the class starts (ISO; default now). */
  StartDateTime?: string;
  /** Whether the client was signed in (default true: attended). */
  SignedIn?: boolean;
  /** Whether the booking was late-cancelled (default false). */
  LateCancelled?: boolean;
  /** Whether the client missed the class (default false). */
  Missed?: boolean;
}

/** Events the store raises for the webhook dispatcher. */
export interface StoreEvents {
  clientCreated(data: ClientEventData): void;
  clientUpdated(data: ClientEventData): void;
  clientDeactivated(data: ClientEventData): void;
  membershipCancelled(data: MembershipCancelledEventData): void;
  contractUpdated(data: ClientContractEventData): void;
  contractCancelled(data: ClientContractEventData): void;
  saleCreated(data: ClientSaleEventData): void;
  profilesMerged(data: ProfileMergerEventData): void;
}

/** A control operation refused: the HTTP status and Mindbody error code the control API answers. */
export interface StoreRefusal {
  status: number;
  code: string;
  message: string;
}

/** Filters of `GET /client/clients`. */
export interface ClientFilter {
  /** Epoch ms: LastModifiedDateTime at or after it. */
  since?: number;
  /** `request.clientIDs` (Client.Id). */
  clientIds?: string[];
  /** `request.uniqueIds`. */
  uniqueIds?: number[];
  searchText?: string;
  /** `request.includeInactive`: inactive profiles (`Active: false`) too; else they are left out. */
  includeInactive?: boolean;
}

/**
 * The site's data in memory: clients in UniqueId order (the paging order), contracts by client,
 * the autopay writes received. Filtered lists are cached per filter until the data changes, so
 * paging through N clients costs one O(N) filter, then O(page) per page.
 */
export class SandboxStore {
  private clients: Client[] = [];
  private byId = new Map<string, Client>();
  private contracts = new Map<string, ClientContract[]>();
  private contractById = new Map<number, { contract: ClientContract; clientId: string }>();
  /** Tax rate of each contract (its items' Tax / Subtotal when seeded), by ClientContract.Id. */
  private taxRates = new Map<number, number>();
  private writes: AutopayWrite[] = [];
  private purchases = new Map<string, ClientPurchaseRecord[]>();
  /** Each client's visits, by class start (the seed has none; tests record them). */
  private visits = new Map<string, Visit[]>();
  private nextVisitId = 1;
  private nextSaleId = FIRST_SALE_ID;
  private filtered = new Map<string, Client[]>();
  private nextContractId = FIRST_CONTRACT_ID;
  private lastModified = 0;

  /** The site's ID (numeric, as webhook deliveries carry it). */
  readonly siteId: number;

  constructor(
    seed: SeedOptions & { siteId: number },
    private readonly events: StoreEvents,
    private readonly now: () => number = Date.now,
  ) {
    this.siteId = seed.siteId;
    this.reset(seed);
  }

  /** Replaces every client, contract, purchase and autopay write with a fresh seed. */
  reset(seed: SeedOptions): void {
    const data = seedSite({ ...seed, siteId: this.siteId });
    this.clients = data.clients;
    this.byId = new Map(this.clients.map((client) => [client.Id, client]));
    this.contracts = data.contracts;
    this.contractById = new Map();
    this.taxRates = new Map();
    for (const [clientId, list] of this.contracts)
      for (const contract of list) this.keepContract(contract, clientId);
    this.nextContractId = FIRST_CONTRACT_ID + this.contractById.size;
    this.purchases = data.purchases;
    this.visits = new Map();
    this.nextVisitId = 1;
    this.nextSaleId = [...data.purchases.values()]
      .flat()
      .reduce((next, record) => Math.max(next, record.Sale.Id + 1), FIRST_SALE_ID);
    this.writes = [];
    this.lastModified = Math.max(
      0,
      ...this.clients.slice(-1).map((client) => Date.parse(client.LastModifiedDateTime)),
    );
    this.filtered.clear();
  }

  private keepContract(contract: ClientContract, clientId: string): void {
    this.contractById.set(contract.Id, { contract, clientId });
    const [first] = contract.UpcomingAutopayEvents;
    this.taxRates.set(
      contract.Id,
      first && first.Subtotal > 0 ? Math.round((first.Tax / first.Subtotal) * 10_000) / 10_000 : 0,
    );
  }

  /** Number of clients. */
  get size(): number {
    return this.clients.length;
  }

  /** Every client in paging order (the live objects: do not mutate). */
  all(): readonly Client[] {
    return this.clients;
  }

  /** One client by Id. */
  client(id: string): Client | undefined {
    return this.byId.get(id);
  }

  /** Clients matching `filter`, cached until the data changes. */
  query(filter: ClientFilter): readonly Client[] {
    if (
      filter.includeInactive === true &&
      filter.since === undefined &&
      !filter.clientIds?.length &&
      !filter.uniqueIds?.length &&
      !filter.searchText
    )
      return this.clients;
    const key = JSON.stringify([
      filter.since ?? null,
      filter.clientIds ?? null,
      filter.uniqueIds ?? null,
      filter.searchText?.toLowerCase() ?? null,
      filter.includeInactive === true,
    ]);
    const cached = this.filtered.get(key);
    if (cached) return cached;
    const ids = filter.clientIds?.length ? new Set(filter.clientIds) : null;
    const uniqueIds = filter.uniqueIds?.length ? new Set(filter.uniqueIds) : null;
    const text = filter.searchText?.toLowerCase();
    const since = filter.since ?? Number.NEGATIVE_INFINITY;
    const result = (
      ids
        ? [...ids]
            .map((id) => this.byId.get(id))
            .filter((client): client is Client => !!client)
            .sort((a, b) => a.UniqueId - b.UniqueId)
        : this.clients
    ).filter(
      (client) =>
        (filter.includeInactive === true || client.Active) &&
        (!uniqueIds || uniqueIds.has(client.UniqueId)) &&
        Date.parse(client.LastModifiedDateTime) >= since &&
        (!text ||
          `${client.FirstName} ${client.LastName}`.toLowerCase().includes(text) ||
          (client.Email ?? '').toLowerCase().includes(text) ||
          (client.MobilePhone ?? '').includes(text)),
    );
    if (this.filtered.size > 100) this.filtered.clear();
    this.filtered.set(key, result);
    return result;
  }

  /** A client's contracts ([] for prospects and clients without a membership). */
  contractsOf(clientId: string): ClientContract[] {
    return this.contracts.get(clientId) ?? [];
  }

  /**
   * The client's purchases whose sale is within [from, to] (epoch ms), oldest sale first, as
   * `GET /client/clientpurchases` lists them (optionally only sale `saleId`).
   */
  purchasesOf(clientId: string, from: number, to: number, saleId?: number): ClientPurchaseRecord[] {
    return (this.purchases.get(clientId) ?? []).filter((record) => {
      const at = Date.parse(record.Sale.SaleDateTime);
      return at >= from && at <= to && (saleId === undefined || record.Sale.Id === saleId);
    });
  }

  /**
   * The client's visits whose class starts within [from, to] (epoch ms), as
   * `GET /client/clientvisits` lists them: oldest first, newest first with `order` 'desc'.
   */
  visitsOf(clientId: string, from: number, to: number, order: 'asc' | 'desc' = 'asc'): Visit[] {
    const within = (this.visits.get(clientId) ?? []).filter((visit) => {
      const at = Date.parse(visit.StartDateTime);
      return at >= from && at <= to;
    });
    return order === 'desc' ? within.reverse() : within;
  }

  /**
   * Records a visit of the client (a class it booked; signed in unless told otherwise).
   * @returns the visit, or the refusal (404 unknown client, 400 a bad date or flag)
   */
  recordVisit(clientId: string, input: NewSandboxVisit = {}): Visit | StoreRefusal {
    if (!this.byId.has(clientId))
      return { status: 404, code: 'ClientNotFound', message: `Client ${clientId} not found` };
    const at = input.StartDateTime ?? new Date(this.now()).toISOString();
    if (Number.isNaN(Date.parse(at)))
      return { status: 400, code: 'InvalidParameter', message: 'StartDateTime must be a date' };
    const flags = [input.SignedIn, input.LateCancelled, input.Missed];
    if (flags.some((flag) => flag !== undefined && typeof flag !== 'boolean'))
      return {
        status: 400,
        code: 'InvalidParameter',
        message: 'SignedIn, LateCancelled and Missed must be true or false',
      };
    const visit: Visit = {
      Id: this.nextVisitId++,
      ClientId: clientId,
      StartDateTime: new Date(Date.parse(at)).toISOString(),
      SignedIn: input.SignedIn ?? true,
      LateCancelled: input.LateCancelled ?? false,
      Missed: input.Missed ?? false,
    };
    const list = [...(this.visits.get(clientId) ?? []), visit].sort(
      (a, b) => Date.parse(a.StartDateTime) - Date.parse(b.StartDateTime),
    );
    this.visits.set(clientId, list);
    return { ...visit };
  }

  /**
   * Records a paid sale for the client (by default one autopay charge of its running contract)
   * and raises `clientSale.created`. Like a sale in Mindbody it does not change the client's
   * profile, so `LastModifiedDateTime` stays.
   * @returns the purchase, or the refusal (404 unknown client; 400 no amount and no running
   *   autopay, a negative amount, a bad date)
   */
  recordPayment(
    clientId: string,
    input: NewSandboxPayment = {},
  ): ClientPurchaseRecord | StoreRefusal {
    const client = this.byId.get(clientId);
    if (!client)
      return { status: 404, code: 'ClientNotFound', message: `Client ${clientId} not found` };
    const contract = this.contractsOf(clientId).find((item) => item.AutopayStatus === 'Active');
    const amount = input.Amount ?? contract?.NormalAutoPay;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
      return {
        status: 400,
        code: 'InvalidParameter',
        message:
          'Amount must be a non-negative number (the client has no running autopay to charge)',
      };
    const at = input.SaleDateTime ?? new Date(this.now()).toISOString();
    if (Number.isNaN(Date.parse(at)))
      return { status: 400, code: 'InvalidParameter', message: 'SaleDateTime must be a date' };
    const description =
      input.Description ?? (contract ? `${contract.ContractName} (autopay)` : 'Sale');
    const record = purchaseRecord(
      this.nextSaleId++,
      clientId,
      description,
      Math.round(amount * 100) / 100,
      new Date(Date.parse(at)).toISOString(),
    );
    const list = [...(this.purchases.get(clientId) ?? []), record].sort(
      (a, b) => Date.parse(a.Sale.SaleDateTime) - Date.parse(b.Sale.SaleDateTime),
    );
    this.purchases.set(clientId, list);
    this.events.saleCreated({
      siteId: this.siteId,
      saleId: record.Sale.Id,
      purchasingClientId: clientId,
      saleDateTime: record.Sale.SaleDateTime,
      locationId: record.Sale.LocationId,
      totalAmountPaid: record.AmountPaid,
      payments: [
        {
          paymentMethodId: 1,
          paymentMethodName: 'Credit Card',
          paymentAmountPaid: record.AmountPaid,
        },
      ],
      items: [
        {
          itemId: contract?.ContractID ?? 0,
          type: contract ? 'Contract' : 'Service',
          name: description,
          amountPaid: record.AmountPaid,
          amountDiscounted: 0,
          quantity: 1,
          recipientClientId: clientId,
        },
      ],
    });
    return structuredClone(record);
  }

  /**
   * Suspends the client's membership: its running contract's autopay becomes 'Suspended' and the
   * client's Status 'Suspended' (modified now); raises `clientContract.updated`.
   * @returns the contract, or undefined when the client has no contract with running autopay
   */
  suspendMembership(id: string): ClientContract | undefined {
    return this.setAutopayStatus(id, 'Active', 'Suspended');
  }

  /**
   * Resumes a suspended membership: autopay 'Active' again and the client's Status 'Active'
   * (modified now); raises `clientContract.updated`.
   * @returns the contract, or undefined when the client has no suspended contract
   */
  resumeMembership(id: string): ClientContract | undefined {
    return this.setAutopayStatus(id, 'Suspended', 'Active');
  }

  private setAutopayStatus(
    id: string,
    from: 'Active' | 'Suspended',
    to: 'Active' | 'Suspended',
  ): ClientContract | undefined {
    const client = this.byId.get(id);
    const contract = this.contractsOf(id).find((item) => item.AutopayStatus === from);
    if (!client || !contract) return undefined;
    contract.AutopayStatus = to;
    client.Status = to;
    client.LastModifiedDateTime = this.touch();
    this.filtered.clear();
    this.events.contractUpdated({
      siteId: this.siteId,
      clientId: client.Id,
      clientUniqueId: client.UniqueId,
      clientContractId: contract.Id,
      contractName: contract.ContractName,
      agreementDateTime: contract.AgreementDate,
      contractStartDate: contract.StartDate,
      contractEndDate: contract.EndDate,
      isAutoRenewing: contract.AutoRenewing,
    });
    return { ...contract };
  }

  /**
   * Applies an autopay update (UpdateClientContractAutopaysRequest, already checked against the
   * contract): from `AutopayStartDate` (up to `AutopayEndDate` when given) the upcoming autopays
   * of the contract — of `ProductId` only when given — charge `Amount` dollars; without an end
   * date it also becomes the contract's NormalAutoPay.
   * @returns the updated contract, or the refusal (404 unknown contract, 400 no active autopay,
   *   a product the contract does not have, or no ProductId for a contract of several products)
   */
  updateAutopay(
    request: UpdateClientContractAutopaysRequest,
  ): { contract: ClientContract } | StoreRefusal {
    const found = this.contractById.get(request.ClientContractId);
    if (!found)
      return {
        status: 404,
        code: 'ClientContractNotFound',
        message: `Client contract ${request.ClientContractId} not found`,
      };
    const { contract } = found;
    if (contract.AutopayStatus !== 'Active')
      return {
        status: 400,
        code: 'InvalidParameter',
        message: 'The contract has no active autopay',
      };
    const products = new Set(contract.UpcomingAutopayEvents.map((event) => event.ProductId));
    if (request.ProductId === undefined && products.size > 1)
      return {
        status: 400,
        code: 'InvalidParameter',
        message: 'ProductId is required: the contract has several products',
      };
    if (request.ProductId !== undefined && !products.has(request.ProductId))
      return {
        status: 400,
        code: 'InvalidParameter',
        message: `The contract has no product ${request.ProductId}`,
      };
    const from = Date.parse(request.AutopayStartDate);
    const to = request.AutopayEndDate
      ? Date.parse(request.AutopayEndDate)
      : Number.POSITIVE_INFINITY;
    const amount = Math.round((request.Amount ?? contract.NormalAutoPay) * 100) / 100;
    // What the written item billed before (its subtotal at the last scheduled date): for a
    // one-product contract its NormalAutoPay; for one product of several, that item alone (the
    // add-on is not part of the change, so Amount − PreviousAmount is what the write moved).
    const lastDate = Math.max(
      ...contract.UpcomingAutopayEvents.map((event) => Date.parse(event.ScheduleDate)),
    );
    const previousItem = contract.UpcomingAutopayEvents.find(
      (event) =>
        Date.parse(event.ScheduleDate) === lastDate &&
        (request.ProductId === undefined || event.ProductId === request.ProductId),
    );
    this.writes.push({
      at: new Date(this.now()).toISOString(),
      SiteId: String(this.siteId),
      ClientContractId: contract.Id,
      ClientId: found.clientId,
      Amount: amount,
      PreviousAmount:
        request.ProductId === undefined || !previousItem
          ? contract.NormalAutoPay
          : previousItem.Subtotal,
      AutopayStartDate: request.AutopayStartDate,
      AutopayEndDate: request.AutopayEndDate ?? null,
      ProductId: request.ProductId ?? null,
    });
    const rate = this.taxRates.get(contract.Id) ?? 0;
    contract.UpcomingAutopayEvents = contract.UpcomingAutopayEvents.map((event) => {
      const at = Date.parse(event.ScheduleDate);
      if (request.ProductId !== undefined && event.ProductId !== request.ProductId) return event;
      if (at < from || at > to) return event;
      // Amount replaces the item's price before tax; its tax follows (docs/decisions/mindbody-contract.md).
      return {
        ...autopayEvent(contract.Id, event.ProductId, amount, rate, event.ScheduleDate),
        PaymentMethod: event.PaymentMethod,
      };
    });
    if (to === Number.POSITIVE_INFINITY) {
      // The normal autopay: the items of the last scheduled date, before tax.
      const last = Math.max(
        ...contract.UpcomingAutopayEvents.map((event) => Date.parse(event.ScheduleDate)),
      );
      contract.NormalAutoPay =
        Math.round(
          contract.UpcomingAutopayEvents.filter(
            (event) => Date.parse(event.ScheduleDate) === last,
          ).reduce((sum, event) => sum + event.Subtotal, 0) * 100,
        ) / 100;
    }
    return { contract };
  }

  /** Every autopay write so far, oldest first. */
  autopayWrites(): AutopayWrite[] {
    return this.writes.map((write) => ({ ...write }));
  }

  /** Forgets the autopay writes. */
  clearAutopayWrites(): void {
    this.writes = [];
  }

  /** Adds a client or prospect (modified now) and raises `client.created`. */
  addClient(input: NewSandboxClient): Client {
    const uniqueId = (this.clients.at(-1)?.UniqueId ?? FIRST_CLIENT_ID - 1) + 1;
    const time = this.touch();
    const isProspect = input.IsProspect ?? false;
    const client: Client = {
      Id: barcodeOf(uniqueId),
      UniqueId: uniqueId,
      FirstName: input.FirstName,
      LastName: input.LastName,
      Email: input.Email ?? null,
      MobilePhone: input.MobilePhone ?? null,
      Status: isProspect
        ? 'Non-Member'
        : input.NormalAutoPay !== undefined
          ? 'Active'
          : 'Non-Member',
      Active: true,
      IsProspect: isProspect,
      ReferredBy: input.ReferredBy ?? null,
      CreationDate: time,
      LastModifiedDateTime: time,
    };
    this.clients.push(client);
    this.byId.set(client.Id, client);
    if (!isProspect && input.NormalAutoPay !== undefined) {
      const contract = membershipContract(
        this.nextContractId++,
        client,
        SANDBOX_PLANS[0],
        input.NormalAutoPay,
        Date.parse(time),
        this.siteId,
        { addOn: input.AddOn === true, taxRate: input.TaxRate ?? 0 },
      );
      this.contracts.set(client.Id, [contract]);
      this.keepContract(contract, client.Id);
    }
    this.filtered.clear();
    this.events.clientCreated(eventData(client, this.siteId));
    return { ...client };
  }

  /** Changes a client (modified now) and raises `client.updated`; undefined when unknown. */
  updateClient(id: string, changes: SandboxClientChanges): Client | undefined {
    const client = this.byId.get(id);
    if (!client) return undefined;
    const previousEmail = client.Email;
    const wasActive = client.Active;
    for (const key of [
      'FirstName',
      'LastName',
      'Email',
      'MobilePhone',
      'IsProspect',
      'ReferredBy',
      'Status',
      'Active',
    ] as const) {
      if (changes[key] !== undefined) Object.assign(client, { [key]: changes[key] });
    }
    client.LastModifiedDateTime = this.touch();
    this.filtered.clear();
    this.events.clientUpdated({
      ...eventData(client, this.siteId),
      previousEmail: previousEmail !== client.Email ? previousEmail : null,
    });
    if (changes.Active === false && wasActive !== false)
      this.events.clientDeactivated(eventData(client, this.siteId));
    return { ...client };
  }

  /**
   * Sells the client a membership at the front desk (a contract with autopay `amount` dollars
   * before tax): like a sale in Mindbody it does not change the client's profile, so
   * `LastModifiedDateTime` stays (a sync's lastModifiedDate query does not see it); raises
   * `clientContract.updated`.
   * @returns the contract, or the refusal (404 unknown client, 400 it already has running autopay)
   */
  sellMembership(clientId: string, amount: number): ClientContract | StoreRefusal {
    const client = this.byId.get(clientId);
    if (!client)
      return { status: 404, code: 'ClientNotFound', message: `Client ${clientId} not found` };
    if (this.contractsOf(clientId).some((contract) => contract.AutopayStatus === 'Active'))
      return { status: 400, code: 'InvalidParameter', message: 'The client has running autopay' };
    const contract = membershipContract(
      this.nextContractId++,
      client,
      SANDBOX_PLANS[0],
      amount,
      this.now(),
      this.siteId,
    );
    this.contracts.set(clientId, [...this.contractsOf(clientId), contract]);
    this.keepContract(contract, clientId);
    this.events.contractUpdated({
      siteId: this.siteId,
      clientId: client.Id,
      clientUniqueId: client.UniqueId,
      clientContractId: contract.Id,
      contractName: contract.ContractName,
      agreementDateTime: contract.AgreementDate,
      contractStartDate: contract.StartDate,
      contractEndDate: contract.EndDate,
      isAutoRenewing: contract.AutoRenewing,
    });
    return { ...contract };
  }

  /**
   * Gives a client a new `Id` as a business does (its barcode; UpdateClient's `NewId`): its
   * contracts and purchases follow, its UniqueId stays; modified now, raises `client.updated`.
   * @returns the client, or the refusal (404 unknown client, 400 an Id another client has)
   */
  renumberClient(id: string, newId: string): Client | StoreRefusal {
    const client = this.byId.get(id);
    if (!client) return { status: 404, code: 'ClientNotFound', message: `Client ${id} not found` };
    if (!newId || this.byId.has(newId))
      return { status: 400, code: 'InvalidParameter', message: `Id ${newId} is taken or empty` };
    client.Id = newId;
    this.byId.delete(id);
    this.byId.set(newId, client);
    const contracts = this.contracts.get(id);
    if (contracts) {
      this.contracts.delete(id);
      this.contracts.set(newId, contracts);
      for (const contract of contracts)
        this.contractById.set(contract.Id, { contract, clientId: newId });
    }
    const purchases = this.purchases.get(id);
    if (purchases) {
      this.purchases.delete(id);
      for (const record of purchases) record.Sale.ClientId = newId;
      this.purchases.set(newId, purchases);
    }
    const visits = this.visits.get(id);
    if (visits) {
      this.visits.delete(id);
      for (const visit of visits) visit.ClientId = newId;
      this.visits.set(newId, visits);
    }
    client.LastModifiedDateTime = this.touch();
    this.filtered.clear();
    this.events.clientUpdated({ ...eventData(client, this.siteId), previousEmail: null });
    return { ...client };
  }

  /**
   * Merges client `removeId` into `keepId`, as Mindbody's merge tool does: the kept profile gets
   * the removed one's contracts and purchases (modified now), the removed profile is gone (no
   * longer listed, its Id unknown); raises `clientProfileMerger.created`.
   * @returns the kept client, or the refusal (404 unknown client, 400 the same client)
   */
  mergeClients(keepId: string, removeId: string): Client | StoreRefusal {
    const kept = this.byId.get(keepId);
    const removed = this.byId.get(removeId);
    if (!kept || !removed)
      return { status: 404, code: 'ClientNotFound', message: 'Client not found' };
    if (kept === removed)
      return {
        status: 400,
        code: 'InvalidParameter',
        message: 'A client cannot merge into itself',
      };
    const moved = this.contractsOf(removeId);
    this.contracts.set(keepId, [...this.contractsOf(keepId), ...moved]);
    this.contracts.delete(removeId);
    for (const contract of moved) {
      contract.PayerClientId = kept.UniqueId;
      this.contractById.set(contract.Id, { contract, clientId: keepId });
    }
    const purchases = this.purchases.get(removeId) ?? [];
    for (const record of purchases) record.Sale.ClientId = keepId;
    this.purchases.set(keepId, [...(this.purchases.get(keepId) ?? []), ...purchases]);
    this.purchases.delete(removeId);
    this.clients = this.clients.filter((client) => client !== removed);
    this.byId.delete(removeId);
    kept.LastModifiedDateTime = this.touch();
    this.filtered.clear();
    this.events.profilesMerged({
      siteId: this.siteId,
      keptClientId: kept.Id,
      keptClientUniqueId: kept.UniqueId,
      removedClientId: removed.Id,
      removedClientUniqueId: removed.UniqueId,
    });
    return { ...kept };
  }

  /**
   * Cancels the client's membership: its contract is terminated (autopay inactive, no upcoming
   * autopays), the client becomes 'Terminated' (modified now) and
   * `clientMembershipAssignment.cancelled` is raised. Undefined when there is no active membership.
   */
  cancelMembership(id: string): ClientContract | undefined {
    const client = this.byId.get(id);
    const contract = this.contractsOf(id).find((item) => item.AutopayStatus === 'Active');
    if (!client || !contract) return undefined;
    const time = this.touch();
    contract.AutopayStatus = 'Inactive';
    contract.TerminationDate = time;
    contract.EndDate = time;
    contract.UpcomingAutopayEvents = [];
    client.Status = 'Terminated';
    client.LastModifiedDateTime = time;
    this.filtered.clear();
    this.events.membershipCancelled({
      siteId: this.siteId,
      clientId: client.Id,
      clientUniqueId: client.UniqueId,
      membershipId: contract.ContractID,
      membershipName: contract.ContractName,
    });
    this.events.contractCancelled(contractEventData(client, contract, this.siteId));
    return { ...contract };
  }

  /** A modification time strictly after every earlier one (ISO). */
  private touch(): string {
    this.lastModified = Math.max(this.now(), this.lastModified + 1);
    return new Date(this.lastModified).toISOString();
  }
}

function contractEventData(
  client: Client,
  contract: ClientContract,
  siteId: number,
): ClientContractEventData {
  return {
    siteId,
    clientId: client.Id,
    clientUniqueId: client.UniqueId,
    clientContractId: contract.Id,
    contractName: contract.ContractName,
    agreementDateTime: contract.AgreementDate,
    contractStartDate: contract.StartDate,
    contractEndDate: contract.EndDate,
    isAutoRenewing: contract.AutoRenewing,
  };
}

function eventData(client: Client, siteId: number): ClientEventData {
  return {
    siteId,
    clientId: client.Id,
    clientUniqueId: client.UniqueId,
    creationDateTime: client.CreationDate,
    status: client.Status,
    firstName: client.FirstName,
    lastName: client.LastName,
    email: client.Email,
    mobilePhone: client.MobilePhone,
    isProspect: client.IsProspect,
    referredBy: client.ReferredBy,
  };
}
