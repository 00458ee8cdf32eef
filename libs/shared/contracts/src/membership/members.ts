import { MESSAGES } from '../common/messages';
import {
  isValidCents,
  isValidEmail,
  isValidName,
  type FieldErrors,
  type Unchecked,
} from '../common/field-rules';
import { dollarsToCents } from '../common/money';

/**
 * The member body of the API (docs/product.md#entities "New member payload"): `POST
 * /api/members`, `POST /api/members/:id/branches`, `POST /api/prospects/:id/approve` and, each
 * field optional, `PATCH /api/members/:id`. Amounts are integer cents.
 */
export interface MemberInput {
  memberName: string;
  memberEmail: string;
  /** Monthly membership price, integer cents (0–100,000,000). */
  membershipPriceCents: number;
  /** Discount per referral (per branch), integer cents (0–100,000,000). */
  discountCents: number;
}

/** The add-tree / add-branch / edit form's values: amounts in dollars as typed ("49", "49.95"). */
export interface MemberForm {
  memberName: string;
  memberEmail: string;
  membershipPrice: string;
  discount: string;
}

const memberRules: { [K in keyof MemberInput]: [(value: unknown) => boolean, string] } = {
  memberName: [(value) => typeof value === 'string' && isValidName(value), MESSAGES.invalidName],
  memberEmail: [(value) => typeof value === 'string' && isValidEmail(value), MESSAGES.invalidEmail],
  membershipPriceCents: [isValidCents, MESSAGES.invalidAmount],
  discountCents: [isValidCents, MESSAGES.invalidDiscount],
};

/**
 * Checks a member body (docs/product.md#validation, current version): every field required, each
 * with its own message ('Not a valid name', 'Not a valid email address', 'Not a valid amount',
 * 'Not a valid discount price'); amounts are whole cents from 0 to 100,000,000 (`isValidCents`).
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateMemberInput(input: Unchecked<MemberInput>): FieldErrors<MemberInput> {
  const errors: FieldErrors<MemberInput> = {};
  for (const field of Object.keys(memberRules) as (keyof MemberInput)[]) {
    const [valid, message] = memberRules[field];
    if (!valid(input[field])) errors[field] = message;
  }
  return errors;
}

/**
 * Checks the body of `PATCH /api/members/:id`: the fields sent (not `undefined`) follow
 * `validateMemberInput`'s rules; a field sent as `null` fails with its message.
 * @returns one message per invalid field; an empty object means the changes are valid
 */
export function validateMemberChanges(input: Unchecked<MemberInput>): FieldErrors<MemberInput> {
  const errors = validateMemberInput(input);
  for (const field of Object.keys(errors) as (keyof MemberInput)[])
    if (input[field] === undefined) delete errors[field];
  return errors;
}

/**
 * The form's values as the API's member body: dollars → cents (`dollarsToCents`; text that is not
 * an amount becomes `NaN`, which `validateMemberInput` refuses).
 */
export function memberFromForm(form: MemberForm): MemberInput {
  const cents = (dollars: string | undefined) => dollarsToCents(dollars ?? '') ?? Number.NaN;
  return {
    memberName: form.memberName,
    memberEmail: form.memberEmail,
    membershipPriceCents: cents(form.membershipPrice),
    discountCents: cents(form.discount),
  };
}

/**
 * Checks the add-member form (dollars as typed) with the API's rules (`validateMemberInput` on
 * `memberFromForm`), so the form and the API answer the same messages; also the CSV import's row
 * check.
 * @returns one message per invalid field; an empty object means the input is valid
 */
export function validateMemberForm(form: MemberForm): FieldErrors<MemberForm> {
  const errors = validateMemberInput(memberFromForm(form));
  const formErrors: FieldErrors<MemberForm> = {};
  if (errors.memberName) formErrors.memberName = errors.memberName;
  if (errors.memberEmail) formErrors.memberEmail = errors.memberEmail;
  if (errors.membershipPriceCents) formErrors.membershipPrice = errors.membershipPriceCents;
  if (errors.discountCents) formErrors.discount = errors.discountCents;
  return formErrors;
}
