import type { Schema } from '@grove/api-contract';

/** `POST /api/support/issues` body (signed in, docs/product.md#entities "Issue report"). */
export type SupportIssueRequest = Schema<'SupportIssueDto'>;

/** `GET/PATCH /api/account` (signed in): the owner's name and business details (Account Settings). */
export type AccountDetails = Schema<'AccountDetails'>;

/** `PATCH /api/account` body: any subset of the editable fields (email is not editable here). */
export type UpdateAccountRequest = Schema<'UpdateAccountDto'>;

/** `POST /api/account/password` body. */
export type ChangePasswordRequest = Schema<'ChangePasswordDto'>;

/** `GET /api/account/sessions`: one of the owner's live sign-ins ('Where you're signed in'). */
export type SignedInSession = Schema<'SignedInSession'>;
