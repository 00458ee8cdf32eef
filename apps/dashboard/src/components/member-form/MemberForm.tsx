import { validateMemberInput, type MemberInput } from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, TextField } from '@grove/web-ui';
import { useState } from 'react';

/** Props of {@link MemberForm}. */
export interface MemberFormProps {
  /**
   * Values to start from, e.g. a prospect's name and email and the referrer's price and discount
   * when approving, or the business's defaults when adding a tree (docs/product.md#member-defaults).
   */
  defaultValues?: Partial<MemberInput>;
  submitLabel?: string;
  /** Prefix of the message shown when the save fails (docs/product.md#errors). */
  failurePrefix: string;
  onSubmit: (values: MemberInput) => Promise<unknown>;
}

/** Server field names that map onto this form's fields. */
const memberFields: readonly (keyof MemberInput)[] = [
  'memberName',
  'memberEmail',
  'membershipPrice',
  'discount',
];

/**
 * The member form behind 'Start Growing' and 'Add a New Branch' (docs/product.md#branches): Member name, Email,
 * Current Membership ($), Discount Per Referral ($), Save. Every field is required and checked
 * with docs/product.md#validation's rules and messages (from the contracts, as the API checks them); a server
 * error is shown above the form with its SPEC prefix, and field errors from the server land on
 * their fields. The amounts carry no placeholder: a grey "59.00" looked filled in (issue 25); an
 * amount shown is a real value (`defaultValues`), and an empty field is empty.
 */
export function MemberForm({
  defaultValues,
  submitLabel = 'Save',
  failurePrefix,
  onSubmit,
}: MemberFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    submit,
    field,
    formState: { isSubmitting },
  } = useContractForm<MemberInput>(validateMemberInput, {
    defaultValues: {
      memberName: '',
      memberEmail: '',
      membershipPrice: '',
      discount: '',
      ...defaultValues,
    },
    trim: ['memberName', 'memberEmail'],
    fields: memberFields,
    onSubmit: (values) => {
      setFailure(null);
      return onSubmit(values);
    },
    onError: (error) =>
      setFailure(`${failurePrefix}${error instanceof Error ? error.message : String(error)}`),
  });

  return (
    <form onSubmit={submit} noValidate>
      {failure && <Alert>{failure}</Alert>}
      <TextField label="Member name" autoComplete="off" {...field('memberName')} />
      <TextField label="Email" type="email" autoComplete="off" {...field('memberEmail')} />
      <div className="dash-form-row">
        <TextField
          label="Current Membership ($)"
          inputMode="decimal"
          {...field('membershipPrice')}
        />
        <TextField label="Discount Per Referral ($)" inputMode="decimal" {...field('discount')} />
      </div>
      <Button type="submit" busy={isSubmitting} className="dash-form-submit">
        {submitLabel}
      </Button>
    </form>
  );
}
