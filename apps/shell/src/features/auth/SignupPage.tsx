import { useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import {
  BUSINESS_NAME_MAX_LENGTH,
  countrySelectOptions,
  DEFAULT_COUNTRY,
  PASSWORD_HINT,
  phoneNumberHint,
  SIGNUP_LINK_TTL_HOURS,
  validateSignupInput,
  type SignupInput,
  hrefs,
} from '@grove/contracts';
import { useSession } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, SelectField, TextField } from '@grove/web-ui';
import { useSignup } from './api/signup';
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
 * 'Check your email' after a sign-up (docs/product.md#signup): the same for a new and a taken
 * address (the API answers alike); the link finishes the account, and signing up again sends a
 * new one.
 */
function CheckYourEmail({ email, onAgain }: { email: string; onAgain: () => void }) {
  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Check your email</h1>
        <p className="shell-auth__lead">
          We sent an email to <strong>{email}</strong>. Open the link in it to finish creating your
          Grove account. The link works once, within {SIGNUP_LINK_TTL_HOURS} hours.
        </p>
        <p className="g-muted">
          If this address already has a Grove account, the email tells you how to log in instead.
        </p>
        <p className="shell-auth__switch">Didn't get it? Check your spam folder, or</p>
        <Button variant="secondary" className="shell-auth__submit" onClick={onAgain}>
          Sign up again
        </Button>
      </Card>
    </main>
  );
}

/**
 * Signup (docs/product.md#entities fields plus business name, country and password). Checks run in docs/product.md#validation's order and the
 * first failing rule's message is shown (contracts' `validateSignupInput` through
 * `useContractForm`); the server runs the same function from the contracts. The
 * country (Australia unless chosen, docs/product.md#country) says how the phone number is read.
 * A valid form shows 'Check your email' (docs/product.md#signup): the account is made from the
 * emailed link (`SignupConfirmPage`); 'Sign up again' shows the form as it was filled.
 */
export function SignupPage() {
  const session = useSession();
  const signup = useSignup();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const countries = countrySelectOptions();
  const { submit, register, watch } = useContractForm<SignupInput>(validateSignupInput, {
    defaultValues: empty,
    onInvalid: setError,
    onSubmit: async (values) => {
      setError(null);
      await signup.mutateAsync(values);
      setSentTo(values.email.trim());
    },
    onError: (failure) => setError(failure instanceof Error ? failure.message : String(failure)),
  });
  const country = watch('country');

  if (session.data) return <Navigate to={hrefs.dashboard} replace />;
  if (sentTo) return <CheckYourEmail email={sentTo} onAgain={() => setSentTo(null)} />;

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
