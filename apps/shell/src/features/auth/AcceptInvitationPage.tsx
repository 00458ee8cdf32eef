import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  ACCEPT_INVITATION_PATH,
  INVITATION_INVALID_MESSAGE,
  PASSWORD_HINT,
  STAFF_ROLE_LABELS,
  hrefs,
  validateInvitationAccept,
  type InvitationAcceptRequest,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { ApiError } from '@grove/web-data-access';
import { Alert, Button, Card, Spinner, TextField } from '@grove/web-ui';
import { useAcceptInvitation, useInvitation } from './api/invitation';
import './auth.css';

/** The token of an invitation link, from the address's fragment (`#token=…`). */
function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

type AcceptForm = Omit<InvitationAcceptRequest, 'token'>;

/**
 * 'Join your team' (docs/product.md#staff-accounts), an invitation link's page: the token is read
 * from the fragment and taken out of the address bar at once; it names the business, the address
 * and the role, and asks for a first and last name and a password (signup's rules,
 * `validateInvitationAccept`). Success signs in and opens /dashboard; a used, revoked or expired
 * link says so.
 */
export function AcceptInvitationPage() {
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', ACCEPT_INVITATION_PATH);
  }, []);
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useContractForm<AcceptForm>(validateInvitationAccept, {
    defaultValues: { firstName: '', lastName: '', password: '' },
    trim: ['firstName', 'lastName'],
    fields: ['firstName', 'lastName', 'password'],
    onSubmit: async (values) => {
      setFailure(null);
      await accept.mutateAsync({ token, ...values });
      navigate(hrefs.dashboard, { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) return;
      setFailure(error instanceof Error ? error.message : String(error));
    },
  });
  const invalid = token === '' || invitation.isError;

  return (
    <main className="shell-auth">
      <Card className="shell-auth__card">
        <h1 className="shell-auth__title">Join your team on Grove</h1>
        {invalid ? (
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
            {failure && <Alert>{failure}</Alert>}
            <form onSubmit={form.submit} noValidate>
              <TextField
                label="First name"
                autoComplete="given-name"
                {...form.field('firstName')}
              />
              <TextField label="Last name" autoComplete="family-name" {...form.field('lastName')} />
              <TextField
                label="Password"
                type="password"
                autoComplete="new-password"
                hint={PASSWORD_HINT}
                {...form.field('password')}
              />
              <Button type="submit" busy={accept.isPending} className="shell-auth__submit">
                Join and sign in
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
