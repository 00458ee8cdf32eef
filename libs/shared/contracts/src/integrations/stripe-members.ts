/**
 * The rules of the Stripe member-billing wizard's requests (issue 32, docs/stripe.md#member-billing,
 * docs/decisions/stripe-member-billing.md), used by the API's DTOs (`@ValidatedBy`) and the
 * wizard's forms (`useContractForm`).
 */
import { MESSAGES } from '../common/messages';
import type { FieldErrors, Unchecked } from '../common/field-rules';

/**
 * A Stripe restricted key as the Dashboard shows it: `rk_live_` or `rk_test_` and letters, digits
 * or underscores (Stripe's keys are at most 255 characters). An unrestricted `sk_` key is refused:
 * it could do anything in the gym's account.
 */
export const STRIPE_RESTRICTED_KEY_PATTERN = /^rk_(live|test)_[A-Za-z0-9_]{1,247}$/;

/**
 * What the restricted key must allow, resource by resource (docs/decisions/stripe-member-billing.md);
 * the wizard lists them, and every other resource stays None.
 */
export const STRIPE_MEMBER_PERMISSIONS = [
  { resource: 'Customers', access: 'Write' },
  { resource: 'Subscriptions', access: 'Write' },
  { resource: 'Coupons', access: 'Write' },
  { resource: 'Invoices', access: 'Read' },
] as const;

/** `PUT /api/stripe-members/credentials` body: the gym's restricted key. */
export interface StripeMembersKeyInput {
  apiKey: string;
}

/**
 * Checks the key: a restricted key (`STRIPE_RESTRICTED_KEY_PATTERN`, surrounding spaces ignored),
 * else `MESSAGES.stripeInvalidKey`.
 * @returns one message per invalid field; empty when valid
 */
export function validateStripeMembersKey(
  input: Unchecked<StripeMembersKeyInput>,
): FieldErrors<StripeMembersKeyInput> {
  return typeof input.apiKey === 'string' && STRIPE_RESTRICTED_KEY_PATTERN.test(input.apiKey.trim())
    ? {}
    : { apiKey: MESSAGES.stripeInvalidKey };
}

/**
 * A webhook endpoint's signing secret as Stripe's Dashboard reveals it (`whsec_` and letters or
 * digits; docs/decisions/stripe-member-webhooks.md: the owner pastes it, Grove creates no endpoint).
 */
export const STRIPE_WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_]{1,249}$/;

/** `PUT /api/stripe-members/webhook` body: the signing secret of the endpoint the owner added. */
export interface StripeMembersWebhookInput {
  signingSecret: string;
}

/**
 * Checks the signing secret (`STRIPE_WEBHOOK_SECRET_PATTERN`, surrounding spaces ignored), else
 * `MESSAGES.stripeInvalidWebhookSecret`.
 * @returns one message per invalid field; empty when valid
 */
export function validateStripeMembersWebhook(
  input: Unchecked<StripeMembersWebhookInput>,
): FieldErrors<StripeMembersWebhookInput> {
  return typeof input.signingSecret === 'string' &&
    STRIPE_WEBHOOK_SECRET_PATTERN.test(input.signingSecret.trim())
    ? {}
    : { signingSecret: MESSAGES.stripeInvalidWebhookSecret };
}
