import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from '@grove/web-data-access';
import { ErrorScreen, Button } from '@grove/web-ui';
import { PublicLayout } from './layouts/PublicLayout';
import { SignedInLayout } from './layouts/SignedInLayout';
import { RequireSession } from './auth/RequireSession';
import { LoginPage } from './auth/LoginPage';
import { SignupPage } from './auth/SignupPage';
import { RemoteSlot } from './remotes/RemoteSlot';
import './shell.css';

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
          { path: 'login', element: <LoginPage /> },
          { path: 'signup', element: <SignupPage /> },
          { path: 'referral/*', element: <RemoteSlot remote="referral" /> },
          { path: '*', element: <RemoteSlot remote="marketing" /> },
        ],
      },
      {
        element: (
          <RequireSession>
            <SignedInLayout />
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
