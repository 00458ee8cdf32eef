import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import {
  BUSINESS_NAME_MAX_LENGTH,
  countrySelectOptions,
  DEFAULT_COUNTRY,
  PASSWORD_HINT,
  phoneNumberHint,
  validateSignupInput,
  type SignupInput,
  hrefs,
} from '@grove/contracts';
import { useSession, useSignup } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, SelectField, TextField } from '@grove/web-ui';
import './auth.css';

const empty: SignupInput = {
  businessName: '',
  country: DEFAULT_COUNTRY,
  firstName: '',
  lastName: '',
  email: '',
  phoneNumber: '',
  website: '',
  password: '',
};

/** The signup's text fields, in order; the country select comes before the phone number. */
const fields: {
  name: Exclude<keyof SignupInput, 'country'>;
  label: string;
  type?: string;
  autoComplete: string;
  wide?: boolean;
}[] = [
  { name: 'businessName', label: 'Business name', autoComplete: 'organization', wide: true },
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', wide: true },
  { name: 'phoneNumber', label: 'Phone number', type: 'tel', autoComplete: 'tel' },
  { name: 'website', label: 'Website', type: 'url', autoComplete: 'url', wide: true },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    wide: true,
  },
];

/**
 * Signup (docs/product.md#entities fields plus business name, country and password). Checks run in docs/product.md#validation's order and the
 * first failing rule's message is shown (contracts' `validateSignupInput` through
 * `useContractForm`); the server runs the same function from the contracts. The
 * country (Australia unless chosen, docs/product.md#country) says how the phone number is read.
 */
export function SignupPage() {
  const session = useSession();
  const signup = useSignup();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const countries = countrySelectOptions();
  const { submit, register, watch } = useContractForm<SignupInput>(validateSignupInput, {
    defaultValues: empty,
    onInvalid: setError,
    onSubmit: async (values) => {
      setError(null);
      await signup.mutateAsync(values);
      navigate(hrefs.dashboard, { replace: true });
    },
    onError: (failure) => setError(failure instanceof Error ? failure.message : String(failure)),
  });
  const country = watch('country');

  if (session.data) return <Navigate to={hrefs.dashboard} replace />;

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card shell-auth__card--wide">
        <h1 className="shell-auth__title">Start growing with Grove</h1>
        <p className="g-muted shell-auth__lead">
          Free until your first 2 members arrive through Grove.
        </p>
        {error && <Alert>{error}</Alert>}
        <form onSubmit={submit} noValidate className="shell-auth__grid">
          {fields.map((field) => [
            field.name === 'phoneNumber' && (
              <SelectField
                key="country"
                label="Country"
                autoComplete="country"
                options={countries}
                {...register('country')}
              />
            ),
            <TextField
              key={field.name}
              label={field.label}
              type={field.type ?? 'text'}
              autoComplete={field.autoComplete}
              className={field.wide ? 'shell-auth__wide' : undefined}
              {...register(field.name)}
              maxLength={field.name === 'businessName' ? BUSINESS_NAME_MAX_LENGTH : undefined}
              hint={
                field.name === 'password'
                  ? PASSWORD_HINT
                  : field.name === 'phoneNumber'
                    ? phoneNumberHint(country)
                    : undefined
              }
            />,
          ])}
          <Button type="submit" busy={signup.isPending} className="shell-auth__submit">
            Create account
          </Button>
        </form>
        <p className="shell-auth__switch">
          Already have an account? <Link to={hrefs.login}>Log in</Link>
        </p>
      </Card>
    </main>
  );
}
