import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import {
  FORGOT_PASSWORD_PATH,
  MESSAGES,
  validateLoginInput,
  type AccountSettingsRouteState,
  type LoginInput,
  type SessionUser,
  hrefs,
} from '@grove/contracts';
import {
  ApiError,
  passkeyErrorMessage,
  useLogin,
  usePasskeySignIn,
  useSession,
} from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, TextField, useTimedMessage } from '@grove/web-ui';
import { SecondFactorStep } from './SecondFactorStep';
import './auth.css';

/**
 * Where a signed-in owner goes from the login page: Account Settings (with its notice) when the
 * login reply asked for a new password (`passwordChangeRequired`) or for a second factor the
 * business requires (`secondFactorSetupRequired`, docs/product.md#second-factor), else `from`.
 */
function afterLogin(
  user: SessionUser,
  from: string,
): { to: string; state?: AccountSettingsRouteState } {
  if (user.passwordChangeRequired)
    return { to: hrefs.accountSecurity, state: { passwordChangeRequired: true } };
  if (user.secondFactorSetupRequired)
    return { to: hrefs.accountSecurity, state: { secondFactorSetupRequired: true } };
  return { to: from };
}

/**
 * Login (docs/product.md#login, docs/product.md#states), with 'Forgot password?' under the
 * password (docs/product.md#forgot-password; the email typed so far goes along): empty → 'Please add to email and password fields'
 * (contracts' `validateLoginInput`); loading; a failure
 * shows 'Password or username does not match any user' for 3 s and clears the password; success
 * goes to /dashboard (or the page the owner was sent away from), or to Account Settings' 'Change
 * password' when the password no longer meets Grove's rule. An account with an authenticator app
 * is asked for its code next (`SecondFactorStep`, docs/product.md#second-factor).
 */
export function LoginPage() {
  const session = useSession();
  const login = useLogin();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useTimedMessage();
  const from = (location.state as { from?: string } | null)?.from ?? hrefs.dashboard;
  const [step, setStep] = useState<{ challenge: string; totp: boolean; passkey: boolean } | null>(
    null,
  );
  const passkey = usePasskeySignIn();
  const signedIn = (user: SessionUser) => {
    const next = afterLogin(user, from);
    navigate(next.to, { replace: true, state: next.state });
  };
  const { submit, register, watch, setValue } = useContractForm<LoginInput>(validateLoginInput, {
    defaultValues: { email: '', password: '' },
    trim: ['email'],
    onInvalid: setError,
    onSubmit: async (values) => {
      const reply = await login.mutateAsync(values);
      if ('secondFactorRequired' in reply)
        setStep({ challenge: reply.challenge, totp: reply.totp, passkey: reply.passkey });
      else signedIn(reply);
    },
    onError: (failure) => {
      setValue('password', '');
      setError(
        failure instanceof ApiError && failure.status !== 401
          ? failure.message
          : MESSAGES.loginFailed,
      );
    },
  });

  if (session.data) {
    const next = afterLogin(session.data, from);
    return <Navigate to={next.to} state={next.state} replace />;
  }

  if (step) {
    return (
      <main className="shell-auth">
        <Card className="shell-auth__card">
          <SecondFactorStep
            {...step}
            onSignedIn={signedIn}
            onExpired={(message) => {
              setStep(null);
              setValue('password', '');
              setError(message);
            }}
          />
        </Card>
      </main>
    );
  }

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Welcome back</h1>
        <p className="g-muted shell-auth__lead">Log in to see your trees and branches.</p>
        {error && <Alert>{error}</Alert>}
        <form onSubmit={submit} noValidate>
          <TextField label="Email" type="email" autoComplete="email" {...register('email')} />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            {...register('password')}
          />
          <p className="shell-auth__forgot">
            <Link to={FORGOT_PASSWORD_PATH} state={{ email: watch('email').trim() }}>
              {MESSAGES.forgotPassword}
            </Link>
          </p>
          <Button type="submit" busy={login.isPending} className="shell-auth__submit">
            Log in
          </Button>
        </form>
        <p className="shell-auth__or">or</p>
        <Button
          type="button"
          variant="secondary"
          busy={passkey.isPending}
          className="shell-auth__submit"
          onClick={() =>
            void passkey
              .mutateAsync(undefined)
              .then(signedIn, (failure: unknown) => setError(passkeyErrorMessage(failure)))
          }
        >
          Sign in with a passkey
        </Button>
        <p className="shell-auth__switch">
          New to Grove? <Link to={hrefs.signup}>Create a free account</Link>
        </p>
      </Card>
    </main>
  );
}
