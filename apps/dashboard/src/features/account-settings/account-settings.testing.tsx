import { render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createTestQueryClient } from '@grove/web-testing';
import { AccountSettingsPage } from './AccountSettingsPage';

/**
 * Renders Account Settings as the dashboard mounts it (`account-settings/*` under /dashboard), at
 * `path` with the router state a login may leave (specs only).
 * @param path e.g. '/dashboard/account-settings/security' or '…/account-settings#billing'
 */
export function renderAccountSettings({
  path = '/dashboard/account-settings',
  state = null,
  client = createTestQueryClient(),
}: { path?: string; state?: unknown; client?: QueryClient } = {}) {
  const [pathname, hash = ''] = path.split('#');
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter
        initialEntries={[{ pathname, hash: hash && `#${hash}`, state }]}
        future={{ v7_startTransition: true, v7_relativeSplatPath: true }}
      >
        <Routes>
          <Route path="/dashboard/account-settings/*" element={<AccountSettingsPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
