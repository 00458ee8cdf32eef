/**
 * The member profile (`/dashboard/members/:id`, issue 14 part 3) and links for everyone (issue 14
 * part 4): shapes of `GET /api/members/:id/profile` and the Referral Links screen's
 * 'Create links for all members without one' and automatic-link setting. Money is integer cents;
 * dates are ISO 8601 strings.
 */
import type { MemberRow, MemberStatus } from '../membership/types';
import type { ReferralLink } from '../referral/referral-links';

/** How many levels of a member's referral tree the profile draws (their branches = level 1). */
export const REFERRAL_TREE_MAX_DEPTH = 4;
/** At most this many members of one referral tree are sent; the rest show as 'more branches'. */
export const REFERRAL_TREE_MAX_NODES = 500;
/** The price ledger lines a profile shows (newest first). */
export const PRICE_LEDGER_MAX_LINES = 200;
/** The friends who joined through the member's link a profile lists (newest first). */
export const PROFILE_PROSPECTS_MAX = 100;

/** One member of a referral tree: a branch, with the branches it grew in turn. */
export interface ReferralTreeNode {
  id: string;
  name: string;
  /** When they became a member (ISO). */
  joinedAt: string;
  /** Whether they count as their referrer's branch now ('Active'), or why not. */
  status: MemberStatus;
  /** Their own branches within the drawn depth and size, oldest first. */
  branches: ReferralTreeNode[];
  /** How many of their branches are not drawn (past the depth or size cap). */
  hiddenBranches: number;
}

/** Why a member's price changed (`price_changes.reason`, migration LifecycleFacts). */
export type PriceChangeReason =
  | 'member_added'
  | 'membership_price_changed'
  | 'discount_changed'
  | 'branch_added'
  | 'branch_removed'
  | 'branch_counting'
  | 'branch_lapsed'
  | 'membership_ended'
  | 'mindbody_sync'
  | 'reward_changed'
  | 'backfill';

/** What the profile's price ledger says for each {@link PriceChangeReason} (Grove's own texts). */
export const PRICE_CHANGE_REASON_TEXT: Readonly<Record<PriceChangeReason, string>> = {
  member_added: 'Became a member',
  membership_price_changed: 'Membership price changed',
  discount_changed: 'Discount per referral changed',
  branch_added: 'New branch',
  branch_removed: 'Branch removed',
  branch_counting: 'Branch started counting',
  branch_lapsed: 'Branch lapsed',
  membership_ended: 'Membership ended',
  mindbody_sync: 'Updated from Mindbody',
  reward_changed: 'Referral reward changed',
  backfill: 'Price on record',
};

/** One line of a member's price ledger. */
export interface PriceLedgerLine {
  occurredAt: string;
  reason: PriceChangeReason;
  /** Cents before; null on a member's first line. */
  oldPriceCents: number | null;
  /** Cents after. */
  newPriceCents: number;
  /** The branch that caused the change, when there is one and it is still a member. */
  branchName: string | null;
}

/**
 * Where a friend who joined through a member's link stands (issue 25): 'waiting' on Prospective
 * Members, 'approved' (they became a member and the referrer's branch), or 'removed' by the owner.
 */
export type ProfileProspectStatus = 'waiting' | 'approved' | 'removed';

/** What the profile says for each {@link ProfileProspectStatus} (Grove's own texts). */
export const PROFILE_PROSPECT_STATUS_TEXT: Readonly<Record<ProfileProspectStatus, string>> = {
  waiting: 'Waiting for approval',
  approved: 'Approved: now a branch',
  removed: 'Removed',
};

/** A friend who joined through the member's link, whatever became of them. */
export interface ProfileProspect {
  /** The prospect's id (kept after approval or removal). */
  id: string;
  name: string;
  /** The email they joined with; null when an approval from before issue 25 kept none. */
  email: string | null;
  /** When they joined through the link (ISO). */
  joinedAt: string;
  status: ProfileProspectStatus;
  /** When approved: the member they became (their profile), null once that member is removed. */
  memberId: string | null;
}

/** `GET /api/members/:id/profile`: everything the member profile shows. */
export interface MemberProfile {
  /** Their details as the Branches table shows them (price, discount, branches, managed or not). */
  member: MemberRow;
  /** When they became a member (ISO). */
  joinedAt: string;
  /** The member whose branch they are, if any. */
  referredBy: { id: string; name: string } | null;
  /** Their branches, each with its own branches, down to {@link REFERRAL_TREE_MAX_DEPTH} levels. */
  tree: ReferralTreeNode[];
  /** Their price changes, newest first (at most {@link PRICE_LEDGER_MAX_LINES}). */
  ledger: PriceLedgerLine[];
  /** Their live referral link, or null. */
  referralLink: ReferralLink | null;
  /**
   * Everyone who joined through their link, newest first (at most
   * {@link PROFILE_PROSPECTS_MAX}): waiting, approved or removed.
   */
  prospects: ProfileProspect[];
}

/** State of the latest 'Create links for all members without one' run of a business. */
export type ReferralLinkRunStatus = 'idle' | 'running' | 'done' | 'failed';

/** `GET/POST /api/referral-links/all`: the latest run and how many members still have no link. */
export interface ReferralLinkRun {
  status: ReferralLinkRunStatus;
  /** Members without a live link when the run started. */
  total: number;
  /** Members the run has looked at so far (progress = processed / total). */
  processed: number;
  /** Links the run created. */
  created: number;
  /** Members of the business without a live link right now. */
  withoutLink: number;
}

/** `GET/PUT /api/referral-links/settings`. */
export interface ReferralLinkSettings {
  /** Every new member (added, approved, imported) gets a referral link at once. */
  autoCreate: boolean;
}
