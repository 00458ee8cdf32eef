import type { Schema } from '@grove/api-contract';
import type { MindbodyDiscountsInput } from './mindbody-setup';

/** docs/product.md#states: 1 enter credentials, 2 validated, 3 members imported, 4 fully configured. */
export type MindbodyStage = 1 | 2 | 3 | 4;

/** `GET /api/mindbody` (signed in): what the setup wizard shows. Never includes credentials. */
export type MindbodyStatus = Schema<'MindbodyStatus'>;

/** One member's Mindbody bill that a sync would change, or 'Remove integration' would put back (issue 25). Cents. */
export type MindbodyBillChange = Schema<'MindbodyBillChange'>;

/**
 * `GET /api/mindbody/sync/preview` and `GET /api/mindbody/removal/preview` (issue 25): the
 * Mindbody bills that would change, from what Grove has stored (no Mindbody call), one page of
 * them by name (`items`, `page`, `pageSize`), with the count and the total monthly difference of
 * all of them (cents). `fingerprint` names exactly this set of changes: `POST /api/mindbody/sync`
 * carries it as `confirm`.
 */
export type MindbodyBillChanges = Schema<'MindbodyBillChanges'>;

/** `POST /api/mindbody/sync` body (issue 25): the `fingerprint` of the preview the owner confirmed. */
export type MindbodySyncRequest = Schema<'MindbodySyncDto'>;

/** What a member without an email address shows instead of one (issue 24 part 3). */
export const NO_EMAIL_TEXT = 'No email';

/**
 * The Mindbody summary's line about clients whose email Grove cannot send to (issue 24 part 3).
 * @param count clients of the run with an email that is not one plain mailbox (> 0)
 */
export function mindbodyInvalidEmailsNote(count: number): string {
  const clients = count === 1 ? '1 client has' : `${count.toLocaleString('en-AU')} clients have`;
  return `${clients} an email address in Mindbody that Grove cannot send to: ${count === 1 ? 'it shows' : 'they show'} '${NO_EMAIL_TEXT}' and ${count === 1 ? 'gets' : 'get'} no emails until it is corrected in Mindbody.`;
}

/** `POST /api/mindbody/credentials` body (docs/product.md#validation-mindbody: all three required). */
export type MindbodyCredentialsRequest = Schema<'MindbodyCredentialsDto'>;

/**
 * `GET /api/mindbody/activation?siteId=` (issue 22, docs/product.md#mindbody-setup stage 1): whether the Mindbody
 * site has activated Grove's developer account (Mindbody lists it among the sites Grove may read),
 * and if not, the code and link its owner opens (Mindbody's `GET /site/activationcode`).
 */
export type MindbodySiteActivation = Schema<'MindbodySiteActivation'>;

/** `PUT /api/mindbody/discounts` body, integer cents (`validateMindbodyDiscounts`). */
export type MindbodyDiscountsRequest = MindbodyDiscountsInput;
