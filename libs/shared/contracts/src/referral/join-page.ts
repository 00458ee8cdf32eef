import { isValidEmail, isValidName, type FieldErrors, type Unchecked } from '../common/field-rules';
import { MESSAGES } from '../common/messages';

/**
 * The referral join page the API renders (`GET`/`POST /referral/:code`,
 * docs/architecture.md#join-page) and its inline script (apps/referral
 * `features/join/page/join-page.ts`) meet on these element ids: one list for both.
 */
export const JOIN_PAGE_IDS = {
  /** The `<form method="post">`; its `data-code` is the referral code. */
  form: 'join-form',
  /** What success replaces: the intro text, the failure box and the form. */
  state: 'join-state',
  /** The failure box above the form. */
  failure: 'join-failure',
  name: 'join-name',
  email: 'join-email',
  /** The honeypot input (hidden from people). */
  website: 'referral-website',
  /** The hidden input carrying the channel that brought the visit (`?via=`, {@link JOIN_VIAS}). */
  via: 'join-via',
} as const;

/**
 * The channels a referral link is shared through, as the link's `?via=` names them
 * (docs/product.md#referral-join): the share buttons' WhatsApp, SMS, email and copy, the phone's
 * share sheet, the QR code; `direct` is every visit without one of these (none, unknown,
 * malformed).
 */
export const JOIN_VIAS = ['whatsapp', 'sms', 'email', 'copy', 'share', 'qr', 'direct'] as const;

/** A `?via=` of {@link JOIN_VIAS}. */
export type JoinVia = (typeof JOIN_VIAS)[number];

/**
 * The channels Analytics counts joins under (docs/product.md#analytics): the referral link's
 * {@link JOIN_VIAS}, and `join-page`, a friend who joined through the business's own join page
 * (`/join/<code>`, "Who referred you?"; docs/product.md#business-join), never a `?via=`.
 */
export const JOIN_CHANNELS = [
  'whatsapp',
  'sms',
  'email',
  'copy',
  'share',
  'qr',
  'join-page',
  'direct',
] as const;

/** A channel of {@link JOIN_CHANNELS}. */
export type JoinChannel = (typeof JOIN_CHANNELS)[number];

/** The names the analytics screen gives the channels. */
export const JOIN_CHANNEL_LABELS: Record<JoinChannel, string> = {
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  email: 'Email',
  copy: 'Copied link',
  share: 'Share sheet',
  qr: 'QR code',
  'join-page': 'Join page',
  direct: 'Direct',
};

/**
 * The channel a `?via=` value (or the join form's `via`) names: one of {@link JOIN_VIAS}
 * exactly (lower case), else `direct` (absent, unknown, repeated, not a string, `join-page`):
 * never an error, and the raw value is never kept nor shown.
 */
export function joinChannel(raw: unknown): JoinVia {
  return typeof raw === 'string' && (JOIN_VIAS as readonly string[]).includes(raw)
    ? (raw as JoinVia)
    : 'direct';
}

/**
 * A referral link: the join page of `code` on `origin` (`https://grove.example.com/referral/<code>`).
 * The one place a link is spelled: API replies, emails, the member page and its QR code, the
 * members export. `origin` is Grove's public origin (PUBLIC_ORIGIN), never a request's Host.
 */
export function referralLinkUrl(origin: string, code: string): string {
  return `${origin}/referral/${code}`;
}

/** The join form's fields (`POST /api/referrals/:code/join`, the join page's form). */
export interface JoinReferralInput {
  name: string;
  email: string;
}

/**
 * Checks the join form (docs/product.md#referral-join): the name rule ('Not a valid name') and the
 * email rule ('Not a valid email address'), on the trimmed values.
 * @returns one message per invalid field; empty when valid
 */
export function validateJoinReferral(
  input: Unchecked<JoinReferralInput>,
): FieldErrors<JoinReferralInput> {
  const errors: FieldErrors<JoinReferralInput> = {};
  if (typeof input.name !== 'string' || !isValidName(input.name))
    errors.name = MESSAGES.invalidName;
  if (typeof input.email !== 'string' || !isValidEmail(input.email))
    errors.email = MESSAGES.invalidEmail;
  return errors;
}
