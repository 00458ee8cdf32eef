import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  MESSAGES,
  isValidName,
  isValidPhone,
  isValidWebsite,
  type AccountDetails,
  type UpdateAccountRequest,
} from '@grove/contracts';
import { applyFieldErrors, useUpdateAccount } from '@grove/web-data-access';
import { Alert, Button, Card, TextField } from '@grove/web-ui';

type DetailsForm = Required<UpdateAccountRequest>;

/** Longest business name the API accepts. */
const BUSINESS_NAME_MAX_LENGTH = 200;

/** A rule as the API runs it: empty → 'Please fill in all required fields', else signup's check. */
const required =
  (check: (value: string) => boolean, invalid: string) =>
  (value: string): true | string =>
    !value.trim() ? MESSAGES.fillAllFields : check(value) || invalid;

/** Signup's rules and messages (SPEC §5 signup form), one per field. */
const rules: Record<keyof DetailsForm, (value: string) => true | string> = {
  firstName: required(isValidName, MESSAGES.signupInvalidName),
  lastName: required(isValidName, MESSAGES.signupInvalidName),
  businessName: (value) => !!value.trim() || MESSAGES.businessNameRequired,
  phoneNumber: required(isValidPhone, MESSAGES.signupInvalidPhone),
  website: required(isValidWebsite, MESSAGES.signupInvalidUrl),
};

/** Server field names that map onto this form's fields. */
const detailsFields = Object.keys(rules) as (keyof DetailsForm)[];

const pick = (account: AccountDetails): DetailsForm => ({
  firstName: account.firstName,
  lastName: account.lastName,
  businessName: account.businessName,
  phoneNumber: account.phoneNumber,
  website: account.website,
});

/**
 * 'Your details' on Account Settings: first and last name, business name, phone number and
 * website (checked with signup's rules and messages), email shown read-only. Saving calls
 * `PATCH /api/account`; on success a note says so and the account button shows the new name.
 */
export function AccountDetailsCard({ account }: { account: AccountDetails }) {
  const update = useUpdateAccount();
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DetailsForm>({ defaultValues: pick(account) });

  useEffect(() => reset(pick(account)), [account, reset]);

  const submit = handleSubmit(async (values) => {
    setNote(null);
    try {
      const saved = await update.mutateAsync({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        businessName: values.businessName.trim(),
        phoneNumber: values.phoneNumber.trim(),
        website: values.website.trim(),
      });
      reset(pick(saved));
      setNote({ tone: 'success', text: MESSAGES.accountSaved });
    } catch (error) {
      applyFieldErrors(error, setError, detailsFields);
      setNote({ tone: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  });

  const field = (name: keyof DetailsForm) => ({
    error: errors[name]?.message,
    ...register(name, { validate: rules[name], onChange: () => setNote(null) }),
  });

  return (
    <Card className="dash-account__card" aria-labelledby="account-details-title">
      <h2 id="account-details-title" className="dash-account__title">
        Your details
      </h2>
      <p className="g-muted dash-account__lead">
        The name on your account button and the business your members see.
      </p>
      <form onSubmit={submit} noValidate aria-labelledby="account-details-title">
        <div className="dash-form-row">
          <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
          <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
        </div>
        <TextField
          label="Business name"
          autoComplete="organization"
          maxLength={BUSINESS_NAME_MAX_LENGTH}
          {...field('businessName')}
        />
        <div className="dash-form-row">
          <TextField label="Phone number" type="tel" autoComplete="tel" {...field('phoneNumber')} />
          <TextField label="Website" type="url" autoComplete="url" {...field('website')} />
        </div>
        <TextField
          label="Email"
          type="email"
          value={account.email}
          readOnly
          className="dash-account__readonly"
          hint="You log in with this address; it cannot be changed here."
        />
        {note && <Alert tone={note.tone}>{note.text}</Alert>}
        <Button type="submit" busy={isSubmitting}>
          Save details
        </Button>
      </form>
    </Card>
  );
}
