import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { VERIFICATION_INVALID_MESSAGE, VERIFY_EMAIL_PATH, hrefs } from '@grove/contracts';
import { Alert, Button, Card } from '@grove/web-ui';
import { useVerifyEmail } from './api/email-verification';
import './auth.css';

/** The token of a verification link, from the address's fragment (`#token=…`). */
function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * 'Verify your email' (docs/product.md#verified-senders), the page of the link Grove emails an
 * owner whose business's sender is not verified (a new owner is verified by the sign-up link).
 * The token is read from the fragment (taken out of the address bar at once) and posted only when
 * the owner presses 'Verify my email', never on load, so a link scanner that opens the page (even
 * one running JavaScript) does not use the link (as the sign-up link's page,
 * docs/decisions/signup-by-email.md). The page then says the email is verified and the waiting
 * member emails now go out, or that the link is not valid (used, older than 24 hours; its message
 * says how to get a new one: the banner's 'Resend verification').
 */
export function VerifyEmailPage() {
  const verify = useVerifyEmail();
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', VERIFY_EMAIL_PATH);
  }, []);

  const failure = !token
    ? VERIFICATION_INVALID_MESSAGE
    : verify.isError
      ? verify.error.message
      : null;

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Verify your email</h1>
        {failure ? (
          <Alert>{failure}</Alert>
        ) : verify.isSuccess ? (
          <Alert tone="success">{verify.data.message}</Alert>
        ) : (
          <>
            <p className="g-muted shell-auth__lead">
              Press the button to confirm this is your email, so Grove can send the emails to your
              members that are waiting.
            </p>
            <Button
              busy={verify.isPending}
              className="shell-auth__submit"
              onClick={() => verify.mutate(token)}
            >
              Verify my email
            </Button>
          </>
        )}
        <p className="shell-auth__switch">
          <Link to={hrefs.dashboard}>Go to your dashboard</Link>
        </p>
      </Card>
    </main>
  );
}
