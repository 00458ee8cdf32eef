/**
 * What the Mindbody module reads from Mindbody (docs/architecture.md#mindbody), in Grove's terms: ids as strings,
 * money in integer cents. `MindbodySiteClient` (mindbody-site-client.ts) converts Mindbody's wire
 * format to these.
 */

/** A site and the staff token that opens it. */
export interface MindbodySite {
  siteId: string;
  staffToken: string;
}

/** A Mindbody client as the import reads it (GET /client/clients). */
export interface MindbodyClientRecord {
  /** Mindbody `Id` now (the client id every Public API call takes; the business can change it). */
  id: string;
  /** Mindbody `UniqueId`: never changes, Grove's key of the client. */
  uniqueId: number;
  firstName: string;
  lastName: string;
  /** Null when Mindbody has none. */
  email: string | null;
  isProspect: boolean;
  /** Status Expired, Terminated or Declined: the membership has ended (its referrals stop counting). */
  membershipEnded: boolean;
  /**
   * Status Suspended, or (when its contracts were read) its membership contract's autopay is
   * suspended and none runs: as a branch it stops counting until the membership resumes.
   */
  membershipSuspended: boolean;
  /** Free text naming the referrer (Mindbody stores a full name), or null. */
  referredBy: string | null;
  /** The client's usual autopay amount (NormalAutoPay), cents, when Mindbody says. */
  normalAutoPayCents: number | null;
}

/** One page of clients. */
export interface MindbodyClientPage {
  clients: MindbodyClientRecord[];
  /** PaginationResponse.TotalResults of the whole listing. */
  total: number;
}

/** A client's contract with autopay (GET /client/clientcontracts). */
export interface MindbodyAutopayContract {
  clientContractId: string;
  /**
   * The membership's autopay amount before tax, cents, when known: the membership item's
   * `Subtotal` in the next upcoming autopay, else the contract's NormalAutoPay.
   */
  amountCents: number | null;
  /**
   * The next autopay's date (ISO, `UpcomingAutopayEvents[].ScheduleDate`): the
   * `AutopayStartDate` of a write. Null when Mindbody lists no upcoming autopay (nothing to write).
   */
  nextAutopayDate: string | null;
  /**
   * The membership item's `ProductId` when the contract bills several products (a write must
   * name it); null for a one-product contract.
   */
  productId: number | null;
  /** What Mindbody will charge on `nextAutopayDate` for the whole contract (`ChargeAmount`s, tax included), cents. */
  chargeCents: number | null;
}

/** What a client's contracts say (GET /client/clientcontracts). */
export interface MindbodyContracts {
  /** The contract whose autopay Grove adjusts (the first with running autopay), or none. */
  autopay: MindbodyAutopayContract[];
  /** True when no contract's autopay runs and one's is 'Suspended'. */
  suspended: boolean;
}

/** A webhook subscription (Mindbody Webhooks API). */
export interface MindbodyWebhookSubscription {
  subscriptionId: string;
  /** HMAC-SHA256 key of `X-Mindbody-Signature`. */
  signatureKey: string;
}

/** Mindbody refused the staff login (wrong username, password or site). */
export class MindbodyLoginRefusedError extends Error {
  constructor() {
    super('Mindbody refused the staff login');
    this.name = 'MindbodyLoginRefusedError';
  }
}
