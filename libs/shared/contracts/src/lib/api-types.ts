/**
 * Shapes of the REST API's requests and replies, shared by the API and the web client.
 * Money is always integer cents in replies; requests carry dollars as typed (SPEC §5 pattern).
 */

/** The signed-in owner and their business (`GET /api/auth/me`). */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** What the account button shows (SPEC §2): the owner's first and last name. */
  username: string;
  business: { id: string; name: string };
}

/** `POST /api/auth/login` body. */
export interface LoginRequest {
  email: string;
  password: string;
}

/** A branch as listed on its tree (SPEC §3 "Branch detail"). */
export interface BranchDetail {
  id: string;
  branchName: string;
  branchEmail: string;
}

/** Which integration manages a member, or null for members kept by hand. */
export type IntegrationName = 'Mindbody';

/** One row of the Branches screen (SPEC §2, derived fields from §3). */
export interface MemberRow {
  id: string;
  memberName: string;
  memberEmail: string;
  /** Membership price before discounts, cents. */
  membershipPriceCents: number;
  /** Discount per referral, cents (for Mindbody rows: the integration's discountOnReferral). */
  discountCents: number;
  /** Number of branches (SPEC §4: equals the number of entries in branchDetails). */
  branches: number;
  branchDetails: BranchDetail[];
  /** Price after discounts, cents (SPEC §9; unchanged membership price for Mindbody rows). */
  newPriceCents: number;
  /** Always 'Active' (SPEC §4). */
  status: 'Active';
  managedByIntegration: IntegrationName | null;
  /** The tree this member is a branch of, if any. */
  referringMemberId: string | null;
  createdAt: string;
}

/** Sort keys of `GET /api/members`. */
export const MEMBER_SORT_KEYS = ['memberName', 'memberEmail', 'branches', 'createdAt'] as const;
export type MemberSortKey = (typeof MEMBER_SORT_KEYS)[number];

/** Query of `GET /api/members`. */
export interface ListMembersQuery {
  page?: number;
  pageSize?: number;
  sort?: MemberSortKey;
  order?: 'asc' | 'desc';
  search?: string;
}

/** A page of a list endpoint. `page` is 1-based. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Body of `POST /api/members` and `POST /api/members/:id/branches` (dollars as typed). */
export interface CreateMemberRequest {
  memberName: string;
  memberEmail: string;
  membershipPrice: string;
  discount: string;
  /** Only on `POST /api/members`: attach the new tree as a branch of this member. */
  referringMemberId?: string;
}

/** Every API error reply: `message` is the text to show the user. */
export interface ApiErrorBody {
  statusCode: number;
  message: string;
  /** Per-field messages when the body failed validation. */
  fieldErrors?: Record<string, string>;
}
