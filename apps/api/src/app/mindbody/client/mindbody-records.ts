/**
 * What the Mindbody module needs from Mindbody (DESIGN §6), in Grove's terms: ids as strings,
 * money in integer cents. `MindbodyApiGateway` implements it with `@grove/api-mindbody`'s client;
 * keeping the module on this port keeps the wire format in one file.
 */

/** A site and the staff token that opens it. */
export interface MindbodySite {
  siteId: string;
  staffToken: string;
}

/** A Mindbody client as the import reads it (GET /client/clients). */
export interface MindbodyClientRecord {
  /** Mindbody `Id` (the client id used everywhere else in the API). */
  id: string;
  firstName: string;
  lastName: string;
  /** Null when Mindbody has none. */
  email: string | null;
  isProspect: boolean;
  /** Status Expired, Terminated or Declined: the membership has ended (its referrals stop counting). */
  membershipEnded: boolean;
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
  /** The amount the next autopays charge, cents, when known. */
  amountCents: number | null;
}

/** A webhook subscription (Mindbody Webhooks API). */
export interface MindbodyWebhookSubscription {
  subscriptionId: string;
  /** HMAC-SHA256 key of `X-Mindbody-Signature`. */
  signatureKey: string;
}

/**
 * Mindbody's client calls on one site with one staff token (the calls of one job run, DESIGN §6).
 * Every method throws the client lib's typed errors when Mindbody fails for good (after its
 * retries): `MindbodyAuthError` (401/403, e.g. an expired staff token), `MindbodyRequestError`,
 * `MindbodyUnavailableError`.
 */
export interface MindbodySiteClient {
  /**
   * One page of `GET /client/clients` (limit ≤ 200), optionally only clients modified since
   * `modifiedSince` (`request.lastModifiedDate`).
   */
  clientsPage(page: {
    offset: number;
    limit: number;
    modifiedSince?: Date;
  }): Promise<MindbodyClientPage>;

  /** `GET /client/clientcontracts`: a client's contracts that bill by autopay ([] when none). */
  autopayContracts(clientId: string): Promise<MindbodyAutopayContract[]>;

  /** `POST /client/updateclientcontractautopays`: sets the amount of a contract's autopays, cents. */
  updateAutopayAmount(
    clientId: string,
    clientContractId: string,
    amountCents: number,
  ): Promise<void>;

  /** Sends `staffToken` from the next call on (calls already sent keep theirs). */
  useStaffToken(staffToken: string): void;
}

/** Mindbody refused the staff login (wrong username, password or site). */
export class MindbodyLoginRefusedError extends Error {
  constructor() {
    super('Mindbody refused the staff login');
    this.name = 'MindbodyLoginRefusedError';
  }
}

/** The port. Every method throws the client lib's typed errors when Mindbody fails for good. */
export abstract class MindbodyGateway {
  /**
   * `POST /usertoken/issue`.
   * @returns the staff token and when it expires
   * @throws MindbodyLoginRefusedError when the credentials are wrong
   */
  abstract issueStaffToken(
    siteId: string,
    username: string,
    password: string,
  ): Promise<{ token: string; expiresAt: Date }>;

  /**
   * The calls of one job run on `site`: ONE client, built here and reused by every call of the
   * run (the import's pages, each contract read and autopay write), sending `site.staffToken`
   * until {@link MindbodySiteClient.useStaffToken} replaces it.
   */
  abstract forSite(site: MindbodySite): MindbodySiteClient;

  /**
   * Creates and activates a subscription to client.created, client.updated and clientMembershipAssignment.cancelled delivered to `webhookUrl`.
   * @param referenceId Grove's business id (Mindbody echoes it in the subscription)
   */
  abstract subscribe(
    siteId: string,
    webhookUrl: string,
    referenceId: string,
  ): Promise<MindbodyWebhookSubscription>;

  /** Deletes a subscription (no error when it is already gone). */
  abstract unsubscribe(siteId: string, subscriptionId: string): Promise<void>;
}
