import {
  ERASED_EMAIL_MESSAGE,
  memberFromForm,
  validateMemberForm,
  type MemberForm as MemberFormValues,
  type MemberInput,
} from '@grove/contracts';
import { ApiError, useRoleMay } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, TextField } from '@grove/web-ui';
import { useState, type ReactNode } from 'react';
import './member-form.css';

/** Props of {@link MemberForm}. */
export interface MemberFormProps {
  /**
   * Values to start from, e.g. a prospect's name and email and the referrer's price and discount
   * when approving, or the business's defaults when adding a tree (docs/product.md#member-defaults).
   */
  defaultValues?: Partial<MemberFormValues>;
  submitLabel?: string;
  /** Prefix of the message shown when the save fails (docs/product.md#errors); not for a 402 (Grove paused). */
  failurePrefix: string;
  /**
   * Called with the API's member body: the amounts typed in dollars, sent as integer cents; with
   * `confirmErased: true` when the owner confirmed adding an email erased on request (after the
   * API's 409, docs/product.md#data-rights).
   */
  onSubmit: (values: MemberInput & { confirmErased?: true }) => Promise<unknown>;
  /** More fields after the four, before Save (their values are the caller's to send). */
  children?: ReactNode;
}

/** Under the amounts when the role may not change them (front desk). */
export const FIXED_PRICES_HINT =
  'Your role adds members at the default price and discount. An owner or a manager can change them.';

/** True for the API's 409 for an email whose member was erased on request (docs/product.md#data-rights). */
const isErasedEmail = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 409 && error.message === ERASED_EMAIL_MESSAGE;

/** Server field names that map onto this form's fields. */
const memberFields: readonly (keyof MemberFormValues)[] = [
  'memberName',
  'memberEmail',
  'membershipPrice',
  'discount',
];

/** The API's names of the amounts, which it takes in cents. */
const serverNames = { membershipPrice: 'membershipPriceCents', discount: 'discountCents' };

/**
 * The member form behind 'Start Growing' and 'Add a New Branch' (docs/product.md#branches): Member name, Email,
 * Current Membership ($), Discount Per Referral ($), Save. Every field is required and checked
 * with docs/product.md#validation's rules and messages (contracts' `validateMemberForm`, the API's
 * `validateMemberInput` on the amounts in cents); the amounts are sent as integer cents; a server
 * error is shown above the form with its SPEC prefix, and field errors from the server land on
 * their fields. The amounts carry no placeholder: a grey "59.00" looked filled in (issue 25); an
 * amount shown is a real value (`defaultValues`), and an empty field is empty. A role that may not
 * change prices (front desk, docs/product.md#staff-accounts) sees the amounts read-only. An email
 * erased on request (the API's 409) asks the owner whether the person asked to come back; 'Add
 * them again' sends the same member with `confirmErased` (docs/product.md#data-rights).
 */
export function MemberForm({
  defaultValues,
  submitLabel = 'Save',
  failurePrefix,
  onSubmit,
  children,
}: MemberFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  // The member whose email was erased on request, waiting for the owner's answer.
  const [erased, setErased] = useState<MemberInput | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Front desk adds at the business's defaults and changes no price (docs/product.md#staff-accounts).
  const fixedPrices = !useRoleMay('changePrices');
  const {
    submit,
    field,
    clearErrors,
    formState: { isSubmitting },
  } = useContractForm<MemberFormValues>(validateMemberForm, {
    defaultValues: {
      memberName: '',
      memberEmail: '',
      membershipPrice: '',
      discount: '',
      ...defaultValues,
    },
    trim: ['memberName', 'memberEmail'],
    fields: memberFields,
    serverNames,
    onSubmit: async (values) => {
      setFailure(null);
      setErased(null);
      const member = memberFromForm(values);
      try {
        return await onSubmit(member);
      } catch (error) {
        if (isErasedEmail(error)) setErased(member);
        throw error;
      }
    },
    onError: (error) => {
      if (isErasedEmail(error)) {
        // A question, not a field error: the owner decides.
        clearErrors('memberEmail');
        return;
      }
      setFailure(
        // A paused Grove (402, docs/product.md#billing) refuses before any write: its sentence
        // stands alone; the prefix is for write errors (docs/product.md#errors).
        error instanceof ApiError && error.status === 402
          ? error.message
          : `${failurePrefix}${error instanceof Error ? error.message : String(error)}`,
      );
    },
  });

  const addAgain = async () => {
    if (!erased) return;
    setConfirming(true);
    try {
      await onSubmit({ ...erased, confirmErased: true });
      setErased(null);
    } catch (error) {
      setErased(null);
      setFailure(`${failurePrefix}${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      {failure && <Alert>{failure}</Alert>}
      {erased && (
        <div className="dash-erased" role="alertdialog" aria-labelledby="erased-question">
          <p id="erased-question">
            <strong>{erased.memberEmail}</strong>: {ERASED_EMAIL_MESSAGE} Did they ask to come back?
          </p>
          <div className="dash-erased__actions">
            <Button type="button" busy={confirming} onClick={addAgain}>
              Add them again
            </Button>
            <Button type="button" variant="secondary" onClick={() => setErased(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      <TextField label="Member name" autoComplete="off" {...field('memberName')} />
      <TextField label="Email" type="email" autoComplete="off" {...field('memberEmail')} />
      <div className="dash-form-row">
        <TextField
          label="Current Membership ($)"
          inputMode="decimal"
          readOnly={fixedPrices}
          {...field('membershipPrice')}
        />
        <TextField
          label="Discount Per Referral ($)"
          inputMode="decimal"
          readOnly={fixedPrices}
          {...field('discount')}
        />
      </div>
      {fixedPrices && <p className="g-muted">{FIXED_PRICES_HINT}</p>}
      {children}
      <Button type="submit" busy={isSubmitting} className="dash-form-submit">
        {submitLabel}
      </Button>
    </form>
  );
}
