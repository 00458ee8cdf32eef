import { useForm } from 'react-hook-form';
import { validateMemberInput, type MemberInput } from '@grove/contracts';
import { applyFieldErrors, fieldRules } from '@grove/web-data-access';
import { Alert, Button, TextField } from '@grove/web-ui';
import { useState } from 'react';

/** Props of {@link MemberForm}. */
export interface MemberFormProps {
  /** Values to start from, e.g. a prospect's name and email when approving. */
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

/** react-hook-form rule for a field: exactly the contracts' check and docs/product.md#validation message (as the API runs it). */
const rule = fieldRules<MemberInput>(validateMemberInput);

/**
 * The member form behind 'Start Growing' and 'Add a New Branch' (docs/product.md#branches): Member name, Email,
 * Current Membership ($), Discount Per Referral ($), Save. Every field is required and checked
 * with docs/product.md#validation's rules and messages (from the contracts, as the API checks them); a server
 * error is shown above the form with its SPEC prefix, and field errors from the server land on
 * their fields.
 */
export function MemberForm({
  defaultValues,
  submitLabel = 'Save',
  failurePrefix,
  onSubmit,
}: MemberFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<MemberInput>({
    defaultValues: {
      memberName: '',
      memberEmail: '',
      membershipPrice: '',
      discount: '',
      ...defaultValues,
    },
  });
  const [failure, setFailure] = useState<string | null>(null);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit({
        ...values,
        memberName: values.memberName.trim(),
        memberEmail: values.memberEmail.trim(),
      });
    } catch (error) {
      applyFieldErrors(error, setError, memberFields);
      setFailure(`${failurePrefix}${error instanceof Error ? error.message : String(error)}`);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      {failure && <Alert>{failure}</Alert>}
      <TextField
        label="Member name"
        autoComplete="off"
        error={errors.memberName?.message}
        {...register('memberName', { validate: rule('memberName') })}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="off"
        error={errors.memberEmail?.message}
        {...register('memberEmail', { validate: rule('memberEmail') })}
      />
      <div className="dash-form-row">
        <TextField
          label="Current Membership ($)"
          inputMode="decimal"
          placeholder="59.00"
          error={errors.membershipPrice?.message}
          {...register('membershipPrice', { validate: rule('membershipPrice') })}
        />
        <TextField
          label="Discount Per Referral ($)"
          inputMode="decimal"
          placeholder="10.00"
          error={errors.discount?.message}
          {...register('discount', { validate: rule('discount') })}
        />
      </div>
      <Button type="submit" busy={isSubmitting} className="dash-form-submit">
        {submitLabel}
      </Button>
    </form>
  );
}
