import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { EMAIL_MAX_LENGTH, validatePasswordResetRequest, hrefs } from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, TextField } from '@grove/web-ui';
import { useRequestPasswordReset } from './api/password-reset';
import './auth.css';

/**
 * 'Forgot password?' (docs/product.md#forgot-password): the owner's login email (contracts' email
 * rule, 'Not a valid email address'), then the same answer whatever the address ('If an account
 * uses this email, a link to choose a new password is on its way. Check your inbox.'). The email
 * typed on the login page, if any, is filled in.
 */
export function ForgotPasswordPage() {
  const location = useLocation();
  const typed = (location.state as { email?: string } | null)?.email ?? '';
  const ask = useRequestPasswordReset();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useContractForm(validatePasswordResetRequest, {
    defaultValues: { email: typed },
    trim: ['email'],
    fields: ['email'],
    onSubmit: async (values) => {
      setFailure(null);
      setSent((await ask.mutateAsync(values)).message);
    },
    onError: (error) => setFailure(error instanceof Error ? error.message : String(error)),
  });

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Forgot your password?</h1>
        {sent ? (
          <Alert tone="success">{sent}</Alert>
        ) : (
          <>
            <p className="g-muted shell-auth__lead">
              Enter the email you log in with and we’ll send you a link to choose a new password.
            </p>
            {failure && <Alert>{failure}</Alert>}
            <form onSubmit={form.submit} noValidate>
              <TextField
                label="Email"
                type="email"
                autoComplete="email"
                maxLength={EMAIL_MAX_LENGTH}
                {...form.field('email')}
              />
              <Button type="submit" busy={ask.isPending} className="shell-auth__submit">
                Send link
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
