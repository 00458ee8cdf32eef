import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { VERIFICATION_INVALID_MESSAGE, VERIFY_EMAIL_PATH, hrefs } from '@grove/contracts';
import { Alert, Card, Spinner } from '@grove/web-ui';
import { useVerifyEmail } from './api/email-verification';
import './auth.css';

/** The token of a verification link, from the address's fragment (`#token=…`). */
function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * 'Verify your email' (docs/product.md#verified-senders), the page of the link Grove emails an
 * owner whose business's sender is not verified (a new owner is verified by the sign-up link): the token is read from the fragment (taken out of the address bar at once) and sent once;
 * the page says the email is verified and the waiting member emails now go out, or that the link is
 * not valid (used, older than 24 hours; its message says how to get a new one: the banner's
 * 'Resend verification').
 */
export function VerifyEmailPage() {
  const verify = useVerifyEmail();
  const { mutate } = verify;
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  const sent = useRef(false);
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', VERIFY_EMAIL_PATH);
    // Once, also under React's double effects in development: the link works once.
    if (token && !sent.current) {
      sent.current = true;
      mutate(token);
    }
  }, [token, mutate]);

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Verify your email</h1>
        {!token ? (
          <Alert>{VERIFICATION_INVALID_MESSAGE}</Alert>
        ) : verify.isSuccess ? (
          <Alert tone="success">{verify.data.message}</Alert>
        ) : verify.isError ? (
          <Alert>{verify.error.message}</Alert>
        ) : (
          <Spinner label="Verifying your email…" />
        )}
        <p className="shell-auth__switch">
          <Link to={hrefs.dashboard}>Go to your dashboard</Link>
        </p>
      </Card>
    </main>
  );
}
