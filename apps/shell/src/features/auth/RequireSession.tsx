import { hrefs } from '@grove/contracts';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '@grove/web-data-access';
import { Button, ErrorScreen, Spinner } from '@grove/web-ui';

/** Renders its children for a signed-in owner; sends everyone else to /login (and back after). */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Spinner label="Checking your session…" />;
  if (session.isError) {
    return (
      <ErrorScreen
        title="We could not check your session."
        detail={session.error.message}
        action={<Button onClick={() => session.refetch()}>Try again</Button>}
      />
    );
  }
  if (!session.data)
    return (
      <Navigate to={hrefs.login} replace state={{ from: location.pathname + location.search }} />
    );
  return children;
}
