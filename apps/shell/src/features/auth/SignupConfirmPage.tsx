import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { SIGNUP_CONFIRM_MESSAGES, SIGNUP_CONFIRM_PATH, hrefs } from '@grove/contracts';
import { Alert, Button, Card } from '@grove/web-ui';
import { useConfirmSignup } from './api/signup';
import './auth.css';

/** The token of a sign-up link, from the address's fragment (`#token=…`). */
function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * 'Finish signing up' (docs/product.md#signup, docs/decisions/signup-by-email.md), the page of
 * the link Grove emails after a sign-up: the token is read from the fragment (taken out of the
 * address bar at once) and posted only when the owner presses 'Finish signing up', never on load,
 * so a link scanner that opens the page (even one running JavaScript) does not use the link. The
 * API creates the business and its owner and signs in, and the page goes on to the dashboard. A
 * link that is not valid (used, older than 24 hours, replaced by a newer sign-up) or whose address
 * has an account by now shows the API's message with the ways on: sign up again, or log in.
 */
export function SignupConfirmPage() {
  const confirm = useConfirmSignup();
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', SIGNUP_CONFIRM_PATH);
  }, []);

  if (confirm.isSuccess) return <Navigate to={hrefs.dashboard} replace />;
  const failure = !token
    ? SIGNUP_CONFIRM_MESSAGES.linkInvalid
    : confirm.isError
      ? confirm.error.message
      : null;

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Finish signing up</h1>
        {failure ? (
          <>
            <Alert>{failure}</Alert>
            <p className="shell-auth__switch">
              <Link to={hrefs.signup}>Sign up again</Link> or <Link to={hrefs.login}>Log in</Link>
            </p>
          </>
        ) : (
          <>
            <p className="g-muted shell-auth__lead">
              Press the button to confirm your email, create your Grove account and sign in.
            </p>
            <Button
              busy={confirm.isPending}
              className="shell-auth__submit"
              onClick={() => confirm.mutate({ token })}
            >
              Finish signing up
            </Button>
          </>
        )}
      </Card>
    </main>
  );
}
