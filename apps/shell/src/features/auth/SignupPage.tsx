import { useState, type FormEvent } from 'react';
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
import { Alert, Button, Card, SelectField, TextField } from '@grove/web-ui';

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
 * first failing rule's message is shown; the server runs the same rules from the contracts. The
 * country (Australia unless chosen, docs/product.md#country) says how the phone number is read.
 */
export function SignupPage() {
  const session = useSession();
  const signup = useSignup();
  const navigate = useNavigate();
  const [form, setForm] = useState<SignupInput>(empty);
  const [error, setError] = useState<string | null>(null);
  const countries = countrySelectOptions();

  if (session.data) return <Navigate to={hrefs.dashboard} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = validateSignupInput(form);
    setError(problem);
    if (problem) return;
    signup.mutate(form, {
      onSuccess: () => navigate(hrefs.dashboard, { replace: true }),
      onError: (failure) => setError(failure.message),
    });
  };

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
                value={form.country}
                onChange={(e) => setForm((current) => ({ ...current, country: e.target.value }))}
              />
            ),
            <TextField
              key={field.name}
              label={field.label}
              type={field.type ?? 'text'}
              autoComplete={field.autoComplete}
              className={field.wide ? 'shell-auth__wide' : undefined}
              value={form[field.name]}
              maxLength={field.name === 'businessName' ? BUSINESS_NAME_MAX_LENGTH : undefined}
              hint={
                field.name === 'password'
                  ? PASSWORD_HINT
                  : field.name === 'phoneNumber'
                    ? phoneNumberHint(form.country)
                    : undefined
              }
              onChange={(e) => setForm((current) => ({ ...current, [field.name]: e.target.value }))}
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
