import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import {
  FALLBACK_REMOTE,
  REMOTE_ROUTES,
  SHELL_PAGES,
  type RouteAccess,
  type ShellPage,
} from '@grove/contracts';
import { createQueryClient } from '@grove/web-data-access';
import { ErrorScreen, Button, Spinner } from '@grove/web-ui';
import { PublicLayout } from './layouts/PublicLayout';
import { RequireSession } from '../features/auth/RequireSession';
import { RemoteSlot } from './remotes/RemoteSlot';

// Loaded on first use, so the public pages carry none of their code: the forms (react-hook-form,
// the signup's phone-number rules) and the signed-in frame (search, account menu, issue form).
const LoginPage = lazy(() =>
  import('../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })),
);
const SignupPage = lazy(() =>
  import('../features/auth/SignupPage').then((m) => ({ default: m.SignupPage })),
);
const SignupConfirmPage = lazy(() =>
  import('../features/auth/SignupConfirmPage').then((m) => ({ default: m.SignupConfirmPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
const AcceptInvitationPage = lazy(() =>
  import('../features/auth/AcceptInvitationPage').then((m) => ({
    default: m.AcceptInvitationPage,
  })),
);
const VerifyEmailPage = lazy(() =>
  import('../features/auth/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })),
);
const SignedInLayout = lazy(() =>
  import('./layouts/SignedInLayout').then((m) => ({ default: m.SignedInLayout })),
);

/** Shows `children` once their code has loaded, with a spinner meanwhile. */
function Loaded({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner label="Loading…" />}>{children}</Suspense>;
}

/** The component of each of the shell's own pages (`SHELL_PAGES`). */
const shellPages: Record<ShellPage, ComponentType> = {
  login: LoginPage,
  signup: SignupPage,
  'forgot-password': ForgotPasswordPage,
  'reset-password': ResetPasswordPage,
  'accept-invitation': AcceptInvitationPage,
  'verify-email': VerifyEmailPage,
  'signup/confirm': SignupConfirmPage,
};

/** The routes of `REMOTE_ROUTES` with the given access, each mounting its remote module. */
const remoteRoutes = (access: RouteAccess) =>
  REMOTE_ROUTES.filter((route) => route.access === access).map(({ segment, remote, expose }) => ({
    path: `${segment}/*`,
    element: <RemoteSlot remote={remote} module={expose} />,
  }));

/**
 * Grove's routes (docs/product.md#screens), built from contracts' route → remote table `REMOTE_ROUTES` (which
 * `remoteForPath` also reads, for preloading). Public pages live in the marketing remote, which
 * also answers unknown paths with the 404 screen; signed-in screens live in the dashboard and
 * integrations remotes.
 */
export const routes = [
  {
    errorElement: (
      <ErrorScreen
        action={<Button onClick={() => window.location.assign('/')}>Back to Grove</Button>}
      />
    ),
    children: [
      {
        element: <PublicLayout />,
        children: [
          ...SHELL_PAGES.map((page) => {
            const Page = shellPages[page];
            return {
              path: page,
              element: (
                <Loaded>
                  <Page />
                </Loaded>
              ),
            };
          }),
          ...remoteRoutes('public'),
          {
            path: '*',
            element: <RemoteSlot remote={FALLBACK_REMOTE.remote} module={FALLBACK_REMOTE.expose} />,
          },
        ],
      },
      {
        element: (
          <RequireSession>
            <Loaded>
              <SignedInLayout />
            </Loaded>
          </RequireSession>
        ),
        children: remoteRoutes('signed-in'),
      },
    ],
  },
];

/** The shell: one query client and the router. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
