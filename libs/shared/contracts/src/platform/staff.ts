import { isValidEmail, isValidName, type FieldErrors, type Unchecked } from '../common/field-rules';
import { MESSAGES } from '../common/messages';
import { validatePasskeyName } from './passkeys';
import { passwordProblem, type CommonPasswordCheck } from './password';

/**
 * Staff accounts and their roles (issue 34 item 1, docs/product.md#staff-accounts). The API's
 * role table (`apps/api/src/app/platform/auth/roles/role-table.ts`) decides what each role may
 * call; the web hides what a role cannot do with `roleMay`.
 */

/** Every role a member of staff can have, the most powerful first. */
export const STAFF_ROLES = ['owner', 'manager', 'front_desk', 'viewer'] as const;

/** A member of staff's role. */
export type StaffRole = (typeof STAFF_ROLES)[number];

/** How a role is named to people. */
export const STAFF_ROLE_LABELS: Readonly<Record<StaffRole, string>> = {
  owner: 'Owner',
  manager: 'Manager',
  front_desk: 'Front desk',
  viewer: 'Viewer',
};

/** True when `value` names a role. */
export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

/**
 * What the web shows or hides per role (docs/product.md#staff-accounts); the API refuses the same
 * with 403 from its role table.
 */
export const STAFF_CAPABILITIES = {
  /** Add members, branches, referral links, approve or remove prospects. */
  write: ['owner', 'manager', 'front_desk'],
  /** Set or change a price or a discount (front desk adds at the business's defaults only). */
  changePrices: ['owner', 'manager'],
  /** Remove members or branches, dismiss flags, imports, settings. */
  manage: ['owner', 'manager'],
  /** Read the audit log (Activity) and download it. */
  audit: ['owner', 'manager'],
  /** Download members as CSV. */
  export: ['owner', 'manager'],
  /** Grove's bill, Mindbody, the team. */
  billing: ['owner'],
  integrations: ['owner'],
  team: ['owner'],
  /** Export everything of the business, close its account (docs/product.md#data-rights). */
  dataRights: ['owner'],
  /** Erase a member's personal data on request (docs/product.md#data-rights). */
  erase: ['owner', 'manager'],
} as const satisfies Record<string, readonly StaffRole[]>;

/** A capability `STAFF_CAPABILITIES` names. */
export type StaffCapability = keyof typeof STAFF_CAPABILITIES;

/** True when `role` may do `capability`; a missing role (an older reply) counts as owner. */
export function roleMay(role: StaffRole | undefined, capability: StaffCapability): boolean {
  return (STAFF_CAPABILITIES[capability] as readonly StaffRole[]).includes(role ?? 'owner');
}

/** 403 when the session's role may not call a route. */
export function roleRefusedMessage(role: StaffRole): string {
  return `Your role (${STAFF_ROLE_LABELS[role]}) does not allow this. Ask an owner of the business.`;
}

/** 403 when front desk sends a price or discount other than the business's defaults. */
export const FRONT_DESK_PRICE_MESSAGE =
  'Front desk adds members at the default price and discount only. Ask an owner or a manager to change a price or a discount.';

/** 403 when a role other than owner or manager sends business details with its own name. */
export const OWN_NAME_ONLY_MESSAGE =
  'Your role can change only your own name. Ask an owner of the business to change its details.';

/** 409 when a change would leave the business without an owner. */
export const LAST_OWNER_MESSAGE = 'A business always keeps at least one owner.';

/** 400/404 when an invitation link is unknown, used, revoked or older than 7 days. */
export const INVITATION_INVALID_MESSAGE =
  'This invitation link is no longer valid. Ask the owner to invite you again.';

/** 409 when an invited address already has a Grove account. */
export const STAFF_EMAIL_TAKEN_MESSAGE = 'This email already has a Grove account.';

/** How long an invitation link works (seconds): 7 days. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** The shell's page an invitation link opens (its token in the fragment, `#token=…`). */
export const ACCEPT_INVITATION_PATH = '/accept-invitation';

/** 400 when a body names no known role. */
export const ROLE_INVALID_MESSAGE = 'Choose a role: Owner, Manager, Front desk or Viewer.';

/** `POST /api/team/invitations` body: who to invite and as what. */
export interface StaffInvitationRequest {
  email: string;
  role: StaffRole;
}

/** `PATCH /api/team/members/{id}` body: the new role. */
export interface StaffRoleChangeRequest {
  role: StaffRole;
}

/** `POST /api/team/invitations/accept` body: the link's token, the invitee's name and password. */
export interface InvitationAcceptRequest {
  token: string;
  firstName: string;
  lastName: string;
  password: string;
}

/**
 * `POST /api/team/invitations/passkey/options` body (issue 34 item 1: an invitation accepted with a
 * passkey instead of a first password): the link's token, the invitee's name and the passkey's name.
 */
export interface InvitationPasskeyOptionsRequest {
  token: string;
  firstName: string;
  lastName: string;
  passkeyName: string;
}

/** `POST /api/team/invitations/passkey` body: the options' fields and the browser's answer. */
export interface InvitationPasskeyAcceptRequest extends InvitationPasskeyOptionsRequest {
  /** `@simplewebauthn/browser`'s `startRegistration` answer (RegistrationResponseJSON). */
  response: Record<string, unknown>;
}

/**
 * Checks the Team card's invite form: a valid email address ('Not a valid email address') and a
 * known role (`ROLE_INVALID_MESSAGE`).
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateStaffInvitation(
  input: Unchecked<StaffInvitationRequest>,
): FieldErrors<StaffInvitationRequest> {
  const errors: FieldErrors<StaffInvitationRequest> = {};
  if (typeof input.email !== 'string' || !isValidEmail(input.email))
    errors.email = MESSAGES.invalidEmail;
  if (!isStaffRole(input.role)) errors.role = ROLE_INVALID_MESSAGE;
  return errors;
}

/** Checks a role change: a known role (`ROLE_INVALID_MESSAGE`). */
export function validateStaffRoleChange(
  input: Unchecked<StaffRoleChangeRequest>,
): FieldErrors<StaffRoleChangeRequest> {
  return isStaffRole(input.role) ? {} : { role: ROLE_INVALID_MESSAGE };
}

/**
 * Checks the invitation page's form: first and last name under the one name rule ('Invalid
 * Name', docs/product.md#validation-names) and the password under signup's rule
 * (`passwordProblem`). The token is checked by the API.
 * @param isCommonPassword the API's common-password check; the web form leaves it out
 */
export function validateInvitationAccept(
  input: Unchecked<Omit<InvitationAcceptRequest, 'token'>>,
  isCommonPassword?: CommonPasswordCheck,
): FieldErrors<Omit<InvitationAcceptRequest, 'token'>> {
  const errors: FieldErrors<Omit<InvitationAcceptRequest, 'token'>> = nameErrors(input);
  const problem = passwordProblem(
    typeof input.password === 'string' ? input.password : '',
    isCommonPassword,
  );
  if (problem) errors.password = problem;
  return errors;
}

/**
 * Checks the invitation page's form when the invitee uses a passkey instead of a password: the
 * names as `validateInvitationAccept` checks them, and the passkey's name (`validatePasskeyName`,
 * docs/product.md#passkeys). The token and the browser's answer are checked by the API.
 */
export function validateInvitationPasskey(
  input: Unchecked<Omit<InvitationPasskeyOptionsRequest, 'token'>>,
): FieldErrors<Omit<InvitationPasskeyOptionsRequest, 'token'>> {
  const errors: FieldErrors<Omit<InvitationPasskeyOptionsRequest, 'token'>> = nameErrors(input);
  const passkeyName = validatePasskeyName({ name: input.passkeyName }).name;
  if (passkeyName) errors.passkeyName = passkeyName;
  return errors;
}

/** 'Invalid Name' for a first or last name outside the one name rule (docs/product.md#validation-names). */
function nameErrors(input: {
  firstName?: unknown;
  lastName?: unknown;
}): FieldErrors<{ firstName: string; lastName: string }> {
  const errors: FieldErrors<{ firstName: string; lastName: string }> = {};
  if (typeof input.firstName !== 'string' || !isValidName(input.firstName))
    errors.firstName = MESSAGES.signupInvalidName;
  if (typeof input.lastName !== 'string' || !isValidName(input.lastName))
    errors.lastName = MESSAGES.signupInvalidName;
  return errors;
}
