/**
 * Share in one tap (issue 33 item 3, docs/product.md#share-message): the message a member sends
 * friends from the member page (WhatsApp, SMS, email, copy, the phone's share sheet), written by
 * the owner in Account Settings with placeholders Grove fills in for each member.
 */
import type { FieldErrors, Unchecked } from '../common/field-rules';
import { isPlainMultilineText } from '../common/plain-text';

/** Longest share message, in characters (Unicode code points, as PostgreSQL's `char_length`). */
export const SHARE_MESSAGE_MAX_LENGTH = 500;

/** The placeholders a share message may hold, each filled in for the member who shares. */
export const SHARE_PLACEHOLDERS = ['firstName', 'gym', 'offer', 'link'] as const;

/**
 * One placeholder's name (`{firstName}`: the member's first name; `{gym}`: the business's name;
 * `{offer}`: the friend's welcome offer, worded as the join page words it, empty while the business
 * offers none (docs/product.md#welcome-offer); `{link}`: the member's referral link).
 */
export type SharePlaceholder = (typeof SHARE_PLACEHOLDERS)[number];

/** The message every business starts with, until its owner writes one. */
export const DEFAULT_SHARE_MESSAGE =
  "{firstName} here! Come and train with me at {gym}. Here's my link: {link}";

/** The share message's validation messages (docs/product.md#share-message). */
export const SHARE_MESSAGE_MESSAGES = {
  /** Missing, not text, or empty. */
  required: 'Please write the message your members share',
  /** Over `SHARE_MESSAGE_MAX_LENGTH` characters. */
  tooLong: `The message can be at most ${SHARE_MESSAGE_MAX_LENGTH} characters`,
  /** Holds a control character other than a line break or tab. */
  notPlain: 'The message must be plain text',
  /** Has no `{link}`: a friend would get no way to join. */
  needsLink: 'The message must include {link}, where the member’s referral link goes',
  /** A `{word}` that is not one of `SHARE_PLACEHOLDERS`. */
  unknownPlaceholder: 'Use only the placeholders {firstName}, {gym}, {offer} and {link}',
} as const;

/** `GET/PUT /api/settings/share-message`: the business's share message (placeholders unfilled). */
export interface ShareMessageSettings {
  message: string;
}

/** The channels a member shares through; each link carries its channel as `?via=`. */
export const SHARE_CHANNELS = ['whatsapp', 'sms', 'email', 'copy', 'share'] as const;

/** One share channel. */
export type ShareChannel = (typeof SHARE_CHANNELS)[number];

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** Characters of `text` as PostgreSQL counts them (code points, not UTF-16 units). */
const length = (text: string): number => [...text].length;

/**
 * Checks a share message (the API's `PUT` body and the Account Settings form): text, not empty
 * after trimming, at most 500 characters, plain text (line breaks and tabs allowed, no other
 * control character), only the placeholders `{firstName}`, `{gym}`, `{offer}`, `{link}`, and `{link}`
 * present (docs/product.md#share-message).
 * @returns `{ message }` with the first rule broken; empty when valid
 */
export function validateShareMessage(
  input: Unchecked<ShareMessageSettings>,
): FieldErrors<ShareMessageSettings> {
  const message = typeof input.message === 'string' ? input.message.trim() : '';
  if (message === '') return { message: SHARE_MESSAGE_MESSAGES.required };
  if (length(message) > SHARE_MESSAGE_MAX_LENGTH)
    return { message: SHARE_MESSAGE_MESSAGES.tooLong };
  if (!isPlainMultilineText(message)) return { message: SHARE_MESSAGE_MESSAGES.notPlain };
  for (const [, name] of message.matchAll(PLACEHOLDER))
    if (!(SHARE_PLACEHOLDERS as readonly string[]).includes(name ?? ''))
      return { message: SHARE_MESSAGE_MESSAGES.unknownPlaceholder };
  if (!message.includes('{link}')) return { message: SHARE_MESSAGE_MESSAGES.needsLink };
  return {};
}

/**
 * The message with its placeholders filled in (every occurrence; other text as written). The
 * values are put in as they are: escape or encode the result where it is rendered.
 * @example fillShareMessage('{firstName} at {gym}: {link}', { firstName: 'Siobhán', gym: 'Peak', link: 'https://g.example/referral/a' })
 *   → 'Siobhán at Peak: https://g.example/referral/a'
 */
export function fillShareMessage(
  template: string,
  values: Record<SharePlaceholder, string>,
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    (SHARE_PLACEHOLDERS as readonly string[]).includes(name)
      ? values[name as SharePlaceholder]
      : whole,
  );
}

/** The referral link as shared through `channel`: `…/referral/<code>?via=whatsapp`. */
export function referralLinkVia(referralUrl: string, channel: ShareChannel): string {
  return `${referralUrl}${referralUrl.includes('?') ? '&' : '?'}via=${channel}`;
}

/**
 * What one member shares: their first name, the business's name, the friend's welcome offer
 * (worded; null while the business offers none) and their referral link.
 */
export interface ShareFacts {
  template: string;
  firstName: string;
  gym: string;
  offer: string | null;
  referralUrl: string;
}

/**
 * The member page's share targets for one member (docs/product.md#share-message), each with the
 * owner's message filled in and the link carrying its channel (`?via=`): `whatsapp`
 * (`https://wa.me/?text=…`), `sms` (`sms:?&body=…`, the form iOS and Android both open),
 * `email` (`mailto:?subject=Join me at {gym}&body=…`), all URL-encoded (not yet HTML-escaped);
 * `copyUrl` the link Copy puts on the clipboard; `shareText` the text for the phone's share sheet.
 */
export function shareTargets(facts: ShareFacts): {
  whatsapp: string;
  sms: string;
  email: string;
  copyUrl: string;
  shareText: string;
} {
  const text = (channel: ShareChannel) =>
    fillShareMessage(facts.template, {
      firstName: facts.firstName,
      gym: facts.gym,
      offer: facts.offer ?? '',
      link: referralLinkVia(facts.referralUrl, channel),
    });
  const subject = encodeURIComponent(`Join me at ${facts.gym}`);
  return {
    whatsapp: `https://wa.me/?text=${encodeURIComponent(text('whatsapp'))}`,
    sms: `sms:?&body=${encodeURIComponent(text('sms'))}`,
    email: `mailto:?subject=${subject}&body=${encodeURIComponent(text('email'))}`,
    copyUrl: referralLinkVia(facts.referralUrl, 'copy'),
    shareText: text('share'),
  };
}
