import type { Schema } from '@grove/api-contract';

/** A member's live referral link (docs/product.md#referral-links Referral Links). */
export type ReferralLink = Schema<'ReferralLink'>;

/** One row of the Referral Links screen: a member (tree) and its live link, or null (docs/product.md#screens). */
export type ReferralLinkRow = Schema<'ReferralLinkRow'>;

/** Optional body of `POST /api/members/:id/referral-link` (and `/rotate`). */
export type CreateReferralLinkRequest = Schema<'CreateReferralLinkDto'>;

/** `GET /api/referrals/:code` (public): what the join page shows. */
export type ReferralInfo = Schema<'ReferralInfo'>;

/** `POST /api/referrals/:code/join` body (public, docs/product.md#entities "Referral sign-up"). */
export type JoinReferralRequest = Schema<'JoinReferralDto'>;

/** `POST /api/referrals/:code/join` reply: `{ message: MESSAGES.referralSuccess }`. */
export type JoinReferralReply = Schema<'JoinReferralReply'>;
