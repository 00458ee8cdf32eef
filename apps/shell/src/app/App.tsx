import { lazy, Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from '@grove/web-data-access';
import { ErrorScreen, Button, Spinner } from '@grove/web-ui';
import { PublicLayout } from './layouts/PublicLayout';
import { RequireSession } from './auth/RequireSession';
import { RemoteSlot } from './remotes/RemoteSlot';
import './shell.css';

// Loaded on first use, so the public pages carry none of their code: the forms (react-hook-form,
// the signup's phone-number rules) and the signed-in frame (search, account menu, issue form).
const LoginPage = lazy(() => import('./auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() => import('./auth/SignupPage').then((m) => ({ default: m.SignupPage })));
const SignedInLayout = lazy(() => import('./layouts/SignedInLayout').then((m) => ({ default: m.SignedInLayout })));

/** Shows `children` once their code has loaded, with a spinner meanwhile. */
function Loaded({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner label="Loading…" />}>{children}</Suspense>;
}

/**
 * Grove's routes (SPEC §2). Public pages live in the marketing remote, which also answers unknown
 * paths with the 404 screen; signed-in screens live in the dashboard and integrations remotes.
 */
export const routes = [
  {
    errorElement: <ErrorScreen action={<Button onClick={() => window.location.assign('/')}>Back to Grove</Button>} />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            path: 'login',
            element: (
              <Loaded>
                <LoginPage />
              </Loaded>
            ),
          },
          {
            path: 'signup',
            element: (
              <Loaded>
                <SignupPage />
              </Loaded>
            ),
          },
          { path: 'referral/*', element: <RemoteSlot remote="referral" /> },
          { path: '*', element: <RemoteSlot remote="marketing" /> },
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
        children: [
          { path: 'dashboard/*', element: <RemoteSlot remote="dashboard" /> },
          { path: 'referral-links/*', element: <RemoteSlot remote="dashboard" module="ReferralLinks" /> },
          { path: 'mindbody-setup/*', element: <RemoteSlot remote="integrations" /> },
        ],
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
