/**
 * Wire types of the Mindbody Public API v6 and the Mindbody Webhooks API v1, with Mindbody's own
 * field names (PascalCase in the Public API, camelCase in the Webhooks API). Only the fields Grove
 * reads or writes are typed; Mindbody sends more. Amounts are **dollars as JSON numbers** (Grove
 * converts them to integer cents at its edge). Dates are ISO 8601 strings.
 *
 * Sources: Mindbody's official SDKs (GitHub mindbody/Mindbody-API-SDKs, PublicAPI and WebhooksAPI,
 * python `doc/models/*.md`: ClientWithSuspensionInfo, ClientContract, UpcomingAutopayEvent,
 * PaginationResponse, GetClientsResponse, GetClientContractsResponse, GetClientPurchasesResponse,
 * ClientPurchaseRecord, Sale, SalePayment, GetClientVisitsResponse, Visit, UpdateClientContractAutopaysRequest, Contract,
 * GetClientReferralTypesResponse, GetSitesResponse, Site, GetActivationCodeResponse, IssueRequest,
 * IssueResponse; CreateSubscriptionRequest, PatchSubscriptionRequest, Subscription,
 * CreateSubscriptionResponse, PushApiResult*, PushApiError) and the OpenAPI generated from them
 * (GitHub api-evangelist/mindbody); event deliveries and X-Mindbody-Signature from
 * https://developers.mindbodyonline.com/WebhooksDocumentation. Grove's contract of each operation:
 * apps/mindbody-sandbox/src/contract/mindbody-contract.openapi.json.
 */

/** Production base URL of the Public API v6 (docs/architecture.md#mindbody). */
export const MINDBODY_PUBLIC_API_URL = 'https://api.mindbodyonline.com/public/v6';
/**
 * Production base URL of the Webhooks API v1: the official Webhooks SDK's host
 * (`Server.DEFAULT` 'https://push-api.mindbodyonline.com') and its paths' `/api/v1`.
 */
export const MINDBODY_WEBHOOKS_API_URL = 'https://push-api.mindbodyonline.com/api/v1';
/** Most client IDs one `GET /client/clients` takes in `request.clientIDs` (GetClients: 'maximum 20 clients at once'). */
export const MINDBODY_MAX_CLIENT_IDS = 20;
/** Mindbody's largest `request.limit` for paged GETs. */
export const MINDBODY_MAX_PAGE_SIZE = 200;

/** `{"Error":{"Message","Code"}}`: the body of every Public API error reply. */
export interface MindbodyErrorBody {
  Error: { Message: string; Code: string };
}

/** Paging block of every paged Public API reply. */
export interface PaginationResponse {
  /** `request.limit` as received. */
  RequestedLimit: number;
  /** `request.offset` as received. */
  RequestedOffset: number;
  /** Number of results in this reply. */
  PageSize: number;
  /** Number of results in the whole (filtered) data set. */
  TotalResults: number;
}

/** Client status values Mindbody documents. */
export type ClientStatus =
  'Declined' | 'Non-Member' | 'Active' | 'Expired' | 'Suspended' | 'Terminated';

/** A client (member or prospect) as `GET /client/clients` returns it (model ClientWithSuspensionInfo). */
export interface Client {
  /**
   * The client's ID as the business configures it (its barcode ID when barcodes are assigned):
   * used by every client call, and the business can change it (`NewId`).
   */
  Id: string;
  /** System-generated, unique at the site, never changes: Grove's key of a client. */
  UniqueId: number;
  FirstName: string;
  LastName: string;
  Email: string | null;
  MobilePhone: string | null;
  /** Membership status at the business. */
  Status: ClientStatus;
  /** false: the profile is inactive (listed only with `request.includeInactive=true`). */
  Active: boolean;
  /** True for prospects (leads who are not members yet). */
  IsProspect: boolean;
  /**
   * How the client was referred to the business: one of the site's referral types
   * (`GET /client/clientreferraltypes`, e.g. 'Friend', 'Instagram'), a label and never a person;
   * null when unset.
   */
  ReferredBy: string | null;
  /** When the profile was created (ISO). */
  CreationDate: string;
  /** UTC time of the last change to the profile (ISO); `request.lastModifiedDate` filters on it. */
  LastModifiedDateTime: string;
}

/** `GET /client/clients` reply. */
export interface GetClientsResponse {
  PaginationResponse: PaginationResponse;
  Clients: Client[];
}

/** Autopay status of a contract. */
export type AutopayStatus = 'Active' | 'Inactive' | 'Suspended';

/** One scheduled autopay charge of a contract. */
export interface UpcomingAutopayEvent {
  ClientContractId: number;
  /** Dollars charged on ScheduleDate. */
  ChargeAmount: number;
  /** Dollars before tax. */
  Subtotal: number;
  /** Dollars of tax. */
  Tax: number;
  PaymentMethod: 'Other' | 'CreditCard' | 'DebitAccount' | 'ACH';
  /** ISO date-time of the charge. */
  ScheduleDate: string;
  ProductId: number;
}

/** A contract a client holds (`GET /client/clientcontracts`). */
export interface ClientContract {
  /** Unique ID of this sale of the contract: the `ClientContractId` of autopay updates. */
  Id: number;
  /** ID of the contract template. */
  ContractID: number;
  ContractName: string;
  /** Numeric client ID of the payer. */
  PayerClientId: number;
  SiteId: number;
  AgreementDate: string;
  StartDate: string;
  EndDate: string | null;
  TerminationDate: string | null;
  AutopayStatus: AutopayStatus;
  AutoRenewing: boolean;
  IsMonthToMonth: boolean;
  /** Dollars of the first autopay charge. */
  FirstAutoPay: number;
  /** Dollars of the last autopay charge. */
  LastAutoPay: number;
  /** Dollars of the normal recurring autopay charge. */
  NormalAutoPay: number;
  UpcomingAutopayEvents: UpcomingAutopayEvent[];
}

/** `GET /client/clientcontracts` reply. */
export interface GetClientContractsResponse {
  PaginationResponse: PaginationResponse;
  Contracts: ClientContract[];
}

/**
 * One payment of a sale (Public API v6 `Payment` model, as `Sale.Payments` carries it). Mindbody
 * sends more fields (Notes, LastFour, …).
 */
export interface SalePayment {
  Id: number;
  /** Dollars paid with this payment. */
  Amount: number;
  /** ID of the payment method (site-specific). */
  Method: number;
  /** The payment method's type, e.g. 'CreditCard', 'Cash', 'Account'. */
  Type: string;
}

/**
 * A sale (Public API v6 `Sale` model) as `GET /client/clientpurchases` nests it in each purchase:
 * a sale at the front desk or online, or one autopay run of a contract.
 */
export interface Sale {
  /** The sale's ID. */
  Id: number;
  /** Date of the sale (ISO; Mindbody sends midnight of the sale's day). */
  SaleDate: string;
  /** When the sale happened (ISO). */
  SaleDateTime: string;
  /** When the sale first happened, for a sale that was changed since (ISO), else as SaleDateTime. */
  OriginalSaleDateTime: string;
  /** The client who bought (`Client.Id`). */
  ClientId: string;
  LocationId: number;
  Payments: SalePayment[];
}

/**
 * One item a client bought (Public API v6 `ClientPurchaseRecord`): the sale it was part of and
 * what was paid for it. An autopay charge of a contract is a purchase like any other sale.
 */
export interface ClientPurchaseRecord {
  Sale: Sale;
  /** The item's name and description, e.g. 'Monthly Unlimited'. */
  Description: string;
  /** True when the item was a payment credited to the client's account. */
  AccountPayment: boolean;
  /** Dollars: the item's price before tax and discounts. */
  Price: number;
  /** Dollars paid for the item (0 for a comp or an unpaid item). */
  AmountPaid: number;
  /** Dollars of discount applied. */
  Discount: number;
  /** Dollars of tax applied. */
  Tax: number;
  /** True when the item was returned (refunded). */
  Returned: boolean;
  Quantity: number;
}

/**
 * `GET /client/clientpurchases` reply (Public API v6 GetClientPurchases): the client's purchases
 * whose sale falls within `request.startDate`–`request.endDate` (Mindbody's defaults: today).
 */
export interface GetClientPurchasesResponse {
  PaginationResponse: PaginationResponse;
  Purchases: ClientPurchaseRecord[];
}

/**
 * One visit of a client (Public API v6 `Visit` model, "a specific visit to a class"): the fields
 * Grove reads. Mindbody marks every field optional; Grove counts a visit only when `SignedIn` is
 * true and it was neither `LateCancelled` nor `Missed` (docs/decisions/mindbody-visits.md).
 */
export interface Visit {
  /** The ID of the visit. */
  Id: number;
  /** The client of the visit (`Client.Id`). */
  ClientId: string;
  /** When the class starts (ISO, UTC). */
  StartDateTime: string;
  /** True when the client was signed in (attended). */
  SignedIn?: boolean;
  /** True when the booking was late-cancelled. */
  LateCancelled?: boolean;
  /** True when the client missed the class. */
  Missed?: boolean;
}

/**
 * `GET /client/clientvisits` reply (Public API v6 GetClientVisits): the client's visits between
 * `request.startDate` and `request.endDate` (Mindbody's defaults: today).
 */
export interface GetClientVisitsResponse {
  PaginationResponse: PaginationResponse;
  Visits: Visit[];
}

/**
 * `POST /client/updateclientcontractautopays` body (model UpdateClientContractAutopaysRequest;
 * nothing else: Mindbody's model has no client field).
 */
export interface UpdateClientContractAutopaysRequest {
  /** `ClientContract.Id` of the contract to change. */
  ClientContractId: number;
  /**
   * First autopay the change applies to (ISO date-time): Grove sends the contract's next
   * `UpcomingAutopayEvents[].ScheduleDate` (docs/decisions/mindbody-contract.md#autopay-write).
   */
  AutopayStartDate: string;
  /** Last autopay the change applies to (ISO); indefinite when absent. */
  AutopayEndDate?: string;
  /** Product to update: required when the contract has more than one product. */
  ProductId?: number;
  ReplaceWithProductId?: number;
  /** Dollars: overrides the autopay amount (or the amount that would come from ProductId). */
  Amount?: number;
  OverwriteAllProductIDs?: boolean;
}

/**
 * `POST /client/updateclientcontractautopays` reply: the official response model is `Contract`
 * (the contract template, not the client's contract); Grove reads nothing of it.
 */
export interface UpdateClientContractAutopaysResponse {
  Id?: number;
  Name?: string;
}

/** A site the developer account may read (model Site; Grove's fields). */
export interface Site {
  Id: number;
  Name?: string;
  /** true: the site's prices include their tax. */
  TaxInclusivePrices?: boolean;
  CurrencyIsoCode?: string;
  TimeZone?: string;
}

/** `GET /site/sites` reply (GetSitesResponse): only sites that have activated the developer account. */
export interface GetSitesResponse {
  PaginationResponse: PaginationResponse;
  Sites: Site[];
}

/** `GET /site/activationcode` reply (GetActivationCodeResponse). */
export interface GetActivationCodeResponse {
  /** The code the site's owner confirms. */
  ActivationCode: string;
  /** A link to the site's Manage Credentials screen, opened by the owner signed in to Mindbody. */
  ActivationLink: string;
}

/** `GET /client/clientreferraltypes` reply. */
export interface GetClientReferralTypesResponse {
  ReferralTypes: string[];
}

/** `GET /client/requiredclientfields` reply (model GetRequiredClientFieldsResponse). */
export interface GetRequiredClientFieldsResponse {
  /** The client fields the site requires of a new client, e.g. `['Email', 'MobilePhone']`. */
  RequiredClientFields: string[];
}

/**
 * `POST /client/addclient` body: the fields of the official AddClientRequest Grove sends.
 * FirstName and LastName are required ("You must specify a first name when you add a client").
 */
export interface AddClientRequest {
  FirstName: string;
  LastName: string;
  Email?: string;
  MobilePhone?: string;
  /** One of the site's `GetClientReferralTypes` strings. */
  ReferredBy?: string;
}

/** `POST /client/addclient` reply (model AddClientResponse): the client made. */
export interface AddClientResponse {
  Client: Client;
}

/** `POST /usertoken/issue` body. */
export interface IssueUserTokenRequest {
  Username: string;
  Password: string;
}

/** The staff user a token was issued to. */
export interface MindbodyStaffUser {
  Id: number;
  FirstName: string;
  LastName: string;
  Type: string;
}

/** `POST /usertoken/issue` reply: `AccessToken` goes in the `Authorization` header. */
export interface IssueUserTokenResponse {
  TokenType?: string;
  AccessToken: string;
  /** Expiry (ISO); Mindbody tokens last 7 days unless revoked. */
  Expires?: string;
  User: MindbodyStaffUser;
}

// ---------------------------------------------------------------------------------------------
// Webhooks API v1 (`https://push-api.mindbodyonline.com/api/v1`)
// ---------------------------------------------------------------------------------------------

/** The webhook events Grove subscribes to. */
export const MINDBODY_EVENT_IDS = [
  'client.created',
  'client.updated',
  'client.deactivated',
  'clientMembershipAssignment.cancelled',
  'clientContract.updated',
  'clientContract.cancelled',
  'clientSale.created',
  'clientProfileMerger.created',
] as const;
/** One of {@link MINDBODY_EVENT_IDS}. */
export type MindbodyEventId = (typeof MINDBODY_EVENT_IDS)[number];

/** Subscription status values (model Subscription, `status`). */
export type SubscriptionStatus =
  | 'PendingActivation'
  | 'Active'
  | 'DeactivatedByUser'
  | 'DeactivatedByAdmin'
  | 'DeactivatedTooManyFailedMessageDeliveryAttempts'
  | 'DeactivatedByEventDeactivation';

/** One error of a Webhooks API reply (model PushApiError). */
export interface PushApiError {
  errorCode: number;
  errorMessage: string;
  errorType: string;
}

/**
 * The envelope of every Webhooks API reply (models PushApiResult*): the client returns `value`
 * and throws for `isSuccess: false`.
 */
export interface PushApiResult<T> {
  isSuccess: boolean;
  value: T;
  errorInformation?: PushApiError[];
}

/**
 * `POST /api/v1/subscriptions` body (CreateSubscriptionRequest). It names no site: a subscription
 * belongs to the developer account and receives the events of every site that activated it.
 */
export interface CreateSubscriptionRequest {
  eventIds: MindbodyEventId[];
  /** Version of the event payloads; 1 is the only one. */
  eventSchemaVersion: number;
  /** Free text returned in each subscription. */
  referenceId?: string;
  /** HTTPS URL Mindbody POSTs deliveries to (and sends a HEAD to before activating). */
  webhookUrl: string;
}

/** A subscription as the Webhooks API returns it (model Subscription; `messageSignatureKey` only from POST). */
export interface WebhookSubscription {
  subscriptionId: string;
  status: SubscriptionStatus;
  subscriptionCreationDateTime: string;
  statusChangeDate: string | null;
  statusChangeMessage: string | null;
  statusChangeUser: string | null;
  eventIds: MindbodyEventId[];
  eventSchemaVersion: number;
  referenceId: string | null;
  webhookUrl: string;
  /** HMAC key of the `X-Mindbody-Signature` header; only `POST /subscriptions` returns it (keep it secret). */
  messageSignatureKey?: string;
}

/** `POST /api/v1/subscriptions` reply's value (CreateSubscriptionResponse). */
export interface CreatedSubscription extends WebhookSubscription {
  messageSignatureKey: string;
}

/** `PATCH /api/v1/subscriptions/{subscriptionId}` body (every field optional). */
export interface PatchSubscriptionRequest {
  /** 'Active' activates a pending subscription or reactivates a deactivated one. */
  status?: 'Active';
  eventIds?: MindbodyEventId[];
  eventSchemaVersion?: number;
  referenceId?: string;
  webhookUrl?: string;
}

/** `GET /api/v1/subscriptions` reply. */
export interface GetSubscriptionsResponse {
  items: WebhookSubscription[];
}

/** `DELETE /api/v1/subscriptions/{subscriptionId}` reply. */
export interface DeleteSubscriptionResponse {
  message: string;
  deactivationDateTime: string;
  subscriptionId: string;
  referenceId: string | null;
}

/** `eventData` of `client.created` and `client.updated` (camelCase, as Mindbody sends it). */
export interface ClientEventData {
  siteId: number;
  /** `Client.Id`. */
  clientId: string;
  /** `Client.UniqueId`. */
  clientUniqueId: number;
  creationDateTime: string;
  status: ClientStatus;
  firstName: string;
  lastName: string;
  email: string | null;
  mobilePhone: string | null;
  isProspect: boolean;
  referredBy: string | null;
  /** Set on `client.updated` when the email changed. */
  previousEmail?: string | null;
}

/** `eventData` of `clientMembershipAssignment.cancelled`. */
export interface MembershipCancelledEventData {
  siteId: number;
  clientId: string;
  clientUniqueId: number;
  membershipId: number;
  membershipName: string;
}

/**
 * `eventData` of `clientContract.updated` (Webhooks API v1: a client's contract changed, e.g. its
 * autopay was suspended or resumed). Mindbody sends more fields (client names and email, …).
 */
export interface ClientContractEventData {
  siteId: number;
  /** `Client.Id` of the contract's holder. */
  clientId: string;
  clientUniqueId: number;
  /** `ClientContract.Id`. */
  clientContractId: number;
  contractName: string;
  agreementDateTime: string;
  contractStartDate: string;
  contractEndDate: string | null;
  isAutoRenewing: boolean;
}

/**
 * `eventData` of `clientProfileMerger.created` (two client profiles merged into one). The official
 * SDKs do not model event payloads; these fields are Grove's assumption from the Webhooks
 * documentation's naming (docs/decisions/mindbody-contract.md#profile-merge): the profile kept and
 * the one merged into it (which Mindbody no longer lists).
 */
export interface ProfileMergerEventData {
  siteId: number;
  /** `Client.Id` of the profile kept. */
  keptClientId: string;
  keptClientUniqueId?: number;
  /** `Client.Id` of the profile merged away. */
  removedClientId: string;
  removedClientUniqueId?: number;
}

/** One payment of a `clientSale.created` event. */
export interface ClientSalePaymentEventData {
  paymentMethodId: number;
  paymentMethodName: string;
  /** Dollars paid with this payment. */
  paymentAmountPaid: number;
}

/** One item of a `clientSale.created` event. */
export interface ClientSaleItemEventData {
  itemId: number;
  /** E.g. 'Contract', 'Service', 'Product'. */
  type: string;
  name: string;
  /** Dollars paid for the item. */
  amountPaid: number;
  amountDiscounted: number;
  quantity: number;
  recipientClientId: string;
}

/**
 * `eventData` of `clientSale.created` (Webhooks API v1: a sale was completed for a client, also an
 * autopay run). Mindbody sends more fields (sold by, location name, …).
 */
export interface ClientSaleEventData {
  siteId: number;
  saleId: number;
  /** `Client.Id` of the buyer. */
  purchasingClientId: string;
  /** When the sale happened (ISO). */
  saleDateTime: string;
  locationId: number;
  /** Dollars paid for the whole sale. */
  totalAmountPaid: number;
  payments: ClientSalePaymentEventData[];
  items: ClientSaleItemEventData[];
}

interface DeliveryBase<E extends MindbodyEventId, D> {
  /** Unique per delivery attempt set: dedupe on it. */
  messageId: string;
  eventId: E;
  eventSchemaVersion: number;
  /** When the change happened at Mindbody (ISO). */
  eventInstanceOriginationDateTime: string;
  eventData: D;
}

/**
 * One webhook delivery: the JSON body Mindbody POSTs to `webhookUrl`, signed with
 * `X-Mindbody-Signature: sha256=<base64 HMAC-SHA256(raw body, messageSignatureKey)>`.
 */
export type WebhookDelivery =
  | DeliveryBase<'client.created', ClientEventData>
  | DeliveryBase<'client.updated', ClientEventData>
  | DeliveryBase<'client.deactivated', ClientEventData>
  | DeliveryBase<'clientContract.cancelled', ClientContractEventData>
  | DeliveryBase<'clientProfileMerger.created', ProfileMergerEventData>
  | DeliveryBase<'clientMembershipAssignment.cancelled', MembershipCancelledEventData>
  | DeliveryBase<'clientContract.updated', ClientContractEventData>
  | DeliveryBase<'clientSale.created', ClientSaleEventData>;

/** Name of the signature header (Node lower-cases it: `x-mindbody-signature`). */
export const MINDBODY_SIGNATURE_HEADER = 'X-Mindbody-Signature';
