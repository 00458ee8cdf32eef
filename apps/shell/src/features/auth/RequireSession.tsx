import { hrefs, type AccountSettingsRouteState } from '@grove/contracts';
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { onSecondFactorMissing, useSession } from '@grove/web-data-access';
import { Button, ErrorScreen, Spinner } from '@grove/web-ui';

/**
 * Renders its children for a signed-in owner; sends everyone else to /login (and back after).
 * While it is shown, any request the API refuses because the business requires a second factor
 * the person lacks (403, `onSecondFactorMissing`) sends them to Account Settings' Security, which
 * says why ('Your business asks everyone to use a second factor…', docs/product.md#second-factor):
 * the one place that handles it, for every screen of every remote.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const here = useRef(location);
  here.current = location;
  useEffect(
    () =>
      onSecondFactorMissing(() => {
        const { pathname, state } = here.current;
        const onSecurity = pathname.replace(/\/$/, '') === hrefs.accountSecurity;
        // Several refused requests at once: one visit to Security, which says why once.
        if (onSecurity && (state as AccountSettingsRouteState | null)?.secondFactorSetupRequired)
          return;
        const notice: AccountSettingsRouteState = { secondFactorSetupRequired: true };
        navigate(hrefs.accountSecurity, { state: notice, replace: onSecurity });
        here.current = { ...here.current, pathname: hrefs.accountSecurity, state: notice };
      }),
    [navigate],
  );
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
