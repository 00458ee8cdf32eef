import { membersKey } from '@grove/web-data-access';

/*
 * Query-cache keys that two features of the dashboard name, in one place (a key only one feature
 * uses lives in its `features/<f>/api/`; keys two apps share in `@grove/web-data-access`).
 */

/**
 * The 'Getting started' checklist (`GET /api/getting-started`, docs/product.md#getting-started):
 * read by `features/getting-started`, reloaded when the member defaults are saved (Account
 * Settings). Under `membersKey`, so every member change (a tree added or imported, a link made, a
 * Mindbody import) reloads it, as the member profile's key does.
 */
export const gettingStartedKey = [...membersKey, 'getting-started'] as const;

/** The business's member defaults (`GET /api/settings/member-defaults`): Account Settings, the add-tree form, the CSV import. */
export const memberDefaultsKey = ['settings', 'member-defaults'] as const;

/** Referral links (`GET /api/referral-links…`): the Referral Links page and every "make a link" button. */
export const referralLinksKey = ['referral-links'] as const;

/** The friend's welcome offer (`GET /api/settings/welcome-offer`): Account Settings and the approval dialog. */
export const welcomeOfferKey = ['settings', 'welcome-offer'] as const;
