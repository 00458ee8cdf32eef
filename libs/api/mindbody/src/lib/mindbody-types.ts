/**
 * Wire types of the Mindbody Public API v6 and the Mindbody Webhooks API v1, with Mindbody's own
 * field names (PascalCase in the Public API, camelCase in the Webhooks API). Only the fields Grove
 * reads or writes are typed; Mindbody sends more. Amounts are **dollars as JSON numbers** (Grove
 * converts them to integer cents at its edge). Dates are ISO 8601 strings.
 *
 * Sources: Mindbody Public API v6 models (Client, ClientContract, UpcomingAutopayEvent,
 * PaginationResponse, GetClientsResponse, GetClientContractsResponse, GetClientPurchasesResponse,
 * ClientPurchaseRecord, Sale, SalePayment, UpdateClientContractAutopaysRequest,
 * GetClientReferralTypesResponse, IssueUserToken*) and the Webhooks API v1 (subscriptions, event
 * deliveries incl. clientSale.created and clientContract.updated, X-Mindbody-Signature), as published at
 * https://developers.mindbodyonline.com (PublicDocumentation / WebhooksDocumentation).
 */

/** Production base URL of the Public API v6 (docs/architecture.md#mindbody). */
export const MINDBODY_PUBLIC_API_URL = 'https://api.mindbodyonline.com/public/v6';
/** Production base URL of the Webhooks API v1. */
export const MINDBODY_WEBHOOKS_API_URL = 'https://mb-api.mindbodyonline.com/push/api/v1';
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

/** A client (member or prospect) as `GET /client/clients` returns it. */
export interface Client {
  /** The business's client ID (string; used by every client call). */
  Id: string;
  /** System-generated unique number of the client at the site. */
  UniqueId: number;
  FirstName: string;
  LastName: string;
  Email: string | null;
  MobilePhone: string | null;
  /** Membership status at the business. */
  Status: ClientStatus;
  /** Whether the client profile is active on the site. */
  Active: boolean;
  /** True for prospects (leads who are not members yet). */
  IsProspect: boolean;
  /** Free text: how (or by whom, as "First Last") the client was referred; null when unset. */
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

/** `POST /client/updateclientcontractautopays` body. */
export interface UpdateClientContractAutopaysRequest {
  /** `ClientContract.Id` of the contract to change. */
  ClientContractId: number;
  /**
   * The client holding the contract. Not in Mindbody's model (Mindbody ignores it); Grove sends
   * it so the sandbox (and logs) can tie a write to a client.
   */
  ClientId?: string;
  /** Dollars: overrides the autopay amount (or the amount that would come from ProductId). */
  Amount?: number;
  /** First autopay the change applies to (ISO); default: the next one. */
  AutopayStartDate?: string;
  /** Last autopay the change applies to (ISO); indefinite when absent. */
  AutopayEndDate?: string;
  /** Product to update (optional when the contract has one product). */
  ProductId?: number;
  ReplaceWithProductId?: number;
  OverwriteAllProductIDs?: boolean;
}

/**
 * `POST /client/updateclientcontractautopays` reply. Mindbody documents it as a `Contract`; the
 * fields Grove relies on are the contract id and the autopay amounts after the change.
 */
export interface UpdateClientContractAutopaysResponse {
  Id: number;
  ContractName: string;
  /** Dollars of the normal recurring autopay after the change. */
  NormalAutoPay: number;
  UpcomingAutopayEvents: UpcomingAutopayEvent[];
}

/** `GET /client/clientreferraltypes` reply. */
export interface GetClientReferralTypesResponse {
  ReferralTypes: string[];
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
// Webhooks API v1 (`/push/api/v1`)
// ---------------------------------------------------------------------------------------------

/** The webhook events Grove subscribes to. */
export const MINDBODY_EVENT_IDS = [
  'client.created',
  'client.updated',
  'clientMembershipAssignment.cancelled',
  'clientContract.updated',
  'clientSale.created',
] as const;
/** One of {@link MINDBODY_EVENT_IDS}. */
export type MindbodyEventId = (typeof MINDBODY_EVENT_IDS)[number];

/** Subscription status values. */
export type SubscriptionStatus =
  | 'PendingActivation'
  | 'Active'
  | 'DeactivatedByUser'
  | 'DeactivatedByAdmin'
  | 'DeactivatedTooManyFailedMessageDeliveryAttempts';

/** `POST /api/v1/subscriptions` body. */
export interface CreateSubscriptionRequest {
  eventIds: MindbodyEventId[];
  /** Version of the event payloads; Grove uses 1. */
  eventSchemaVersion: number;
  /** Free text returned in each subscription (Grove: its business id). */
  referenceId: string;
  /** HTTPS URL Mindbody POSTs deliveries to. */
  webhookUrl: string;
}

/** A subscription as the Webhooks API returns it. */
export interface WebhookSubscription {
  subscriptionId: string;
  status: SubscriptionStatus;
  subscriptionCreationDateTime: string;
  statusChangeDate: string | null;
  statusChangeMessage: string | null;
  statusChangeUser: string | null;
  eventIds: MindbodyEventId[];
  eventSchemaVersion: number;
  referenceId: string;
  webhookUrl: string;
  /** HMAC key of the `X-Mindbody-Signature` header; returned by POST (keep it secret). */
  messageSignatureKey: string;
}

/** `PATCH /api/v1/subscriptions/{subscriptionId}` body (every field optional). */
export interface PatchSubscriptionRequest {
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
  referenceId: string;
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
  | DeliveryBase<'clientMembershipAssignment.cancelled', MembershipCancelledEventData>
  | DeliveryBase<'clientContract.updated', ClientContractEventData>
  | DeliveryBase<'clientSale.created', ClientSaleEventData>;

/** Name of the signature header (Node lower-cases it: `x-mindbody-signature`). */
export const MINDBODY_SIGNATURE_HEADER = 'X-Mindbody-Signature';
