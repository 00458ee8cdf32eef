import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  ACCEPT_INVITATION_PATH,
  INVITATION_INVALID_MESSAGE,
  STAFF_ROLE_LABELS,
  hrefs,
  type SessionUser,
} from '@grove/contracts';
import { Alert, Card, RecoveryCodes, Spinner } from '@grove/web-ui';
import { useEnterAsJoined, useInvitation } from './api/invitation';
import { PasskeyJoinForm, PasswordJoinForm, type JoinNames } from './InvitationJoinForms';
import './auth.css';

/** The token of an invitation link, from the address's fragment (`#token=…`). */
function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * 'Join your team' (docs/product.md#staff-accounts), an invitation link's page: the token is read
 * from the fragment and taken out of the address bar at once; it names the business, the address
 * and the role, and asks for a first and last name and a password (signup's rules), or with 'Use
 * a passkey' a passkey instead of the password, added in the same step (its recovery codes are
 * then shown once, 'I have saved them' opens the dashboard). Success signs in and opens
 * /dashboard; a used, revoked or expired link says so.
 */
export function AcceptInvitationPage() {
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', ACCEPT_INVITATION_PATH);
  }, []);
  const invitation = useInvitation(token);
  const enter = useEnterAsJoined();
  const [method, setMethod] = useState<'password' | 'passkey'>('password');
  const [names, setNames] = useState<JoinNames>({ firstName: '', lastName: '' });
  const [joined, setJoined] = useState<{ user: SessionUser; recoveryCodes: string[] } | null>(null);
  const openDashboard = () => navigate(hrefs.dashboard, { replace: true });
  const switchTo = (next: 'password' | 'passkey') => (typed: JoinNames) => {
    setNames(typed);
    setMethod(next);
  };
  const invalid = token === '' || invitation.isError;

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Join your team on Grove</h1>
        {joined ? (
          <RecoveryCodes
            codes={joined.recoveryCodes}
            title="You joined with your passkey."
            onDone={() => {
              enter(joined.user);
              openDashboard();
            }}
          />
        ) : invalid ? (
          <Alert>{invitation.error?.message ?? INVITATION_INVALID_MESSAGE}</Alert>
        ) : invitation.isPending ? (
          <Spinner label="Opening your invitation…" />
        ) : (
          <>
            <p className="g-muted shell-auth__lead">
              You are invited to {invitation.data.businessName} as{' '}
              {STAFF_ROLE_LABELS[invitation.data.role]}. You will sign in as {invitation.data.email}
              .
            </p>
            {method === 'password' ? (
              <PasswordJoinForm
                token={token}
                names={names}
                onSwitch={switchTo('passkey')}
                onJoined={openDashboard}
              />
            ) : (
              <PasskeyJoinForm
                token={token}
                names={names}
                onSwitch={switchTo('password')}
                onJoined={setJoined}
              />
            )}
          </>
        )}
        {!joined && (
          <p className="shell-auth__switch">
            <Link to={hrefs.login}>Back to log in</Link>
          </p>
        )}
      </Card>
    </main>
  );
}
