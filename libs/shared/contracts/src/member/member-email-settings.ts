/**
 * Which event emails a business sends its members (issue 15 part 2), each on unless the owner
 * turns it off (`GET/PUT /api/settings/member-emails`, Account Settings → 'Emails to members').
 */
export interface MemberEmailSettings {
  /** "{friend} joined with your link": to the referrer when a friend is queued as a prospect. */
  friendJoined: boolean;
  /**
   * "{friend} is now your branch: your price is now $X": to the referrer when the branch starts
   * counting (on approval, or later under the business's rule, docs/product.md#branch-qualification).
   */
  branchCounting: boolean;
  /**
   * To the referrer when a branch stops counting: "{friend} no longer counts as your branch: your
   * price is back to $Y" when the owner removed it, "{friend}'s membership ended: …" when its
   * membership ended or was suspended (issue 25).
   */
  branchEnded: boolean;
  /** A welcome to the approved friend, with a link to their own member page. */
  welcome: boolean;
}

/** One setting's key. */
export type MemberEmailSetting = keyof MemberEmailSettings;

/**
 * The settings in the order the screen shows them, with their label and what the email says
 * (`{business}` stands for the owner's business name: `memberEmailExample`).
 */
export const MEMBER_EMAIL_SETTING_TEXT: readonly {
  key: MemberEmailSetting;
  label: string;
  example: string;
}[] = [
  {
    key: 'friendJoined',
    label: 'A friend joined with their link',
    example: '“Sam joined with your link”',
  },
  {
    key: 'branchCounting',
    label: 'Their friend started counting',
    example: '“Sam is now your branch: your price is now $77.50”',
  },
  {
    key: 'branchEnded',
    label: 'A branch stopped counting',
    example:
      '“Sam no longer counts as your branch: your price is back to $90.00”, or “Sam’s membership ended: …” when it did',
  },
  {
    key: 'welcome',
    label: 'Welcome the approved friend',
    example: '“Welcome to {business}”, with a link to their own page',
  },
];

/**
 * A setting's example as the owner of `businessName` would receive it: `{business}` replaced by the
 * business's name ('your business' while it is not known yet).
 */
export function memberEmailExample(example: string, businessName: string | undefined): string {
  return example.replaceAll('{business}', businessName?.trim() || 'your business');
}

/** 400 for a settings body that is not four true/false values. */
export const MEMBER_EMAIL_SETTINGS_INVALID = 'Each email setting must be on or off';
