import { useEffect, useRef, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { SIGNUP_CONFIRM_MESSAGES, SIGNUP_CONFIRM_PATH, hrefs } from '@grove/contracts';
import { Alert, Card, Spinner } from '@grove/web-ui';
import { useConfirmSignup } from './api/signup';
import './auth.css';

/** The token of a sign-up link, from the address's fragment (`#token=…`). */
function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * 'Finish signing up' (docs/product.md#signup), the page of the link Grove emails after a
 * sign-up: the token is read from the fragment (taken out of the address bar at once) and posted
 * once, never on load of a GET by a link scanner; the API creates the business and its owner and
 * signs in, and the page goes on to the dashboard. A link that is not valid (used, older than 24
 * hours, replaced by a newer sign-up) or whose address has an account by now shows the API's
 * message with the ways on: sign up again, or log in.
 */
export function SignupConfirmPage() {
  const confirm = useConfirmSignup();
  const { mutate } = confirm;
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  const sent = useRef(false);
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', SIGNUP_CONFIRM_PATH);
    // Once, also under React's double effects in development: the link works once.
    if (token && !sent.current) {
      sent.current = true;
      mutate({ token });
    }
  }, [token, mutate]);

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
          <Spinner label="Creating your Grove account…" />
        )}
      </Card>
    </main>
  );
}
