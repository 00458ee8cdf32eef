import { useEffect, useMemo, useState } from 'react';
import {
  ACCOUNT_DETAILS_FIELDS,
  BUSINESS_NAME_MAX_LENGTH,
  countrySelectOptions,
  defaultTimeZone,
  MESSAGES,
  phoneNumberHint,
  timeZoneOptions,
  validateAccountDetails,
  type AccountDetails,
  type UpdateAccountRequest,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { useRoleMay } from '@grove/web-data-access';
import { useUpdateAccount } from './api/account';
import { Alert, Button, Card, SelectField, TextField } from '@grove/web-ui';

type DetailsForm = Required<UpdateAccountRequest>;

const pick = (account: AccountDetails): DetailsForm => ({
  firstName: account.firstName,
  lastName: account.lastName,
  businessName: account.businessName,
  country: account.country,
  timeZone: account.timeZone,
  phoneNumber: account.phoneNumber,
  website: account.website,
});

/**
 * 'Your details' on Account Settings: first and last name, business name, country (its phone
 * number is read for it, docs/product.md#country; its money and dates follow it), time zone (a
 * new country starts at its main zone, docs/decisions/business-locale.md), phone number and website (checked with contracts' `validateAccountDetails`: signup's rules and messages, as the
 * API runs them), email shown read-only. Saving calls `PATCH /api/account`; on success a note
 * says so and the account button shows the new name. Front desk and viewers change only their own
 * name (the role table's `own-name-only`): they see the business's details read-only, and only the
 * names are sent.
 */
export function AccountDetailsCard({ account }: { account: AccountDetails }) {
  const update = useUpdateAccount();
  const mayManage = useRoleMay('manage');
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const {
    submit,
    field: contractField,
    reset,
    watch,
    setValue,
    trigger,
    formState: { isSubmitting, errors },
  } = useContractForm<DetailsForm>(validateAccountDetails, {
    defaultValues: pick(account),
    trim: ACCOUNT_DETAILS_FIELDS,
    fields: ACCOUNT_DETAILS_FIELDS,
    onSubmit: async (values) => {
      setNote(null);
      const saved = await update.mutateAsync(
        mayManage ? values : { firstName: values.firstName, lastName: values.lastName },
      );
      reset(pick(saved));
      setNote({ tone: 'success', text: MESSAGES.accountSaved });
    },
    onError: (error) =>
      setNote({ tone: 'error', text: error instanceof Error ? error.message : String(error) }),
  });

  useEffect(() => reset(pick(account)), [account, reset]);

  const field = (name: keyof DetailsForm) => contractField(name, { onChange: () => setNote(null) });
  const countries = countrySelectOptions();
  const country = watch('country');
  const timeZone = watch('timeZone');
  const timeZones = useMemo(
    () =>
      timeZoneOptions(timeZone).map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })),
    [timeZone],
  );

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
        {mayManage ? (
          <>
            <TextField
              label="Business name"
              autoComplete="organization"
              maxLength={BUSINESS_NAME_MAX_LENGTH}
              {...field('businessName')}
            />
            <div className="dash-form-row">
              <SelectField
                label="Country"
                autoComplete="country"
                options={countries}
                {...contractField('country', {
                  // The phone is read for the country: check it again once it was checked.
                  onChange: (event) => {
                    setNote(null);
                    // A new country starts at its main time zone (the owner may pick another).
                    setValue('timeZone', defaultTimeZone(String(event?.target?.value ?? '')));
                    if (errors.phoneNumber) void trigger('phoneNumber');
                  },
                })}
              />
              <TextField
                label="Phone number"
                type="tel"
                autoComplete="tel"
                hint={phoneNumberHint(country)}
                {...field('phoneNumber')}
              />
            </div>
            <SelectField
              label="Time zone"
              hint="Dates on your screens and in your members' emails are shown in this time zone."
              options={timeZones}
              {...field('timeZone')}
            />
            <TextField label="Website" type="url" autoComplete="url" {...field('website')} />
          </>
        ) : (
          <dl className="dash-account__business" aria-label="Your business">
            <dt>Business</dt>
            <dd>{account.businessName}</dd>
            <dt>Phone number</dt>
            <dd>{account.phoneNumber}</dd>
            {account.website && (
              <>
                <dt>Website</dt>
                <dd>{account.website}</dd>
              </>
            )}
            <dd className="g-muted">
              Only owners and managers change the business&rsquo;s details.
            </dd>
          </dl>
        )}
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
