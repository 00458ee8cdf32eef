import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  FORGOT_PASSWORD_PATH,
  MESSAGES,
  PASSWORD_HINT,
  RESET_PASSWORD_PATH,
  validatePasswordReset,
  type PasswordResetInput,
  hrefs,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { ApiError } from '@grove/web-data-access';
import { Alert, Button, Card, TextField } from '@grove/web-ui';
import { useResetPassword } from './api/password-reset';
import './auth.css';

/** The token of a reset link, from the address's fragment (`#token=…`). */
function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * 'Choose a new password' (docs/product.md#forgot-password), the reset link's page: the token is
 * read from the fragment and taken out of the address bar at once; New password (the signup rule,
 * `validatePasswordReset`) and its confirmation ('The new passwords do not match'). Success signs
 * in and opens /dashboard (every other session has ended); a used or expired link says so with a
 * way to ask for a new one.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  const [failure, setFailure] = useState<string | null>(
    token ? null : MESSAGES.passwordResetLinkInvalid,
  );
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', RESET_PASSWORD_PATH);
  }, []);
  const form = useContractForm<PasswordResetInput>(validatePasswordReset, {
    defaultValues: { password: '', confirmPassword: '' },
    fields: ['password'],
    onSubmit: async (values) => {
      setFailure(null);
      await reset.mutateAsync({ token, password: values.password });
      navigate(hrefs.dashboard, { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fieldErrors['password']) return;
      setFailure(error instanceof Error ? error.message : String(error));
    },
  });
  const linkFailed = failure === MESSAGES.passwordResetLinkInvalid;

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Choose a new password</h1>
        {failure && <Alert>{failure}</Alert>}
        {linkFailed ? (
          <p className="shell-auth__switch">
            <Link to={FORGOT_PASSWORD_PATH} className="g-btn g-btn--primary">
              Send me a new link
            </Link>
          </p>
        ) : (
          <>
            <p className="g-muted shell-auth__lead">
              Choosing a new password signs you out everywhere else.
            </p>
            <form onSubmit={form.submit} noValidate>
              <TextField
                label="New password"
                type="password"
                autoComplete="new-password"
                hint={PASSWORD_HINT}
                {...form.field('password')}
              />
              <TextField
                label="Confirm new password"
                type="password"
                autoComplete="new-password"
                {...form.field('confirmPassword')}
              />
              <Button type="submit" busy={reset.isPending} className="shell-auth__submit">
                Save new password
              </Button>
            </form>
          </>
        )}
        <p className="shell-auth__switch">
          <Link to={hrefs.login}>Back to log in</Link>
        </p>
      </Card>
    </main>
  );
}
