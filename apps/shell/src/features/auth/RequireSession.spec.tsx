import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { SECOND_FACTOR_MESSAGES, type SessionUser } from '@grove/contracts';
import { api, unwrap } from '@grove/web-data-access';
import {
  apiError,
  createTestQueryClient,
  http,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { RequireSession } from './RequireSession';

const desk = {
  id: 'u2',
  email: 'siobhan@harbour.example',
  firstName: 'Siobhán',
  lastName: "O'Brien",
  username: "Siobhán O'Brien",
  role: 'front_desk',
} as SessionUser;

/** Any screen of any remote: it asks the API for the prospects and shows what came back. */
function Prospects() {
  const prospects = useQuery({
    queryKey: ['prospects'],
    queryFn: () => unwrap(api.GET('/prospects')),
  });
  return <p>{prospects.isError ? `alert: ${prospects.error.message}` : 'prospects'}</p>;
}

function Security() {
  const location = useLocation();
  return <p>{`security ${JSON.stringify(location.state)}`}</p>;
}

function renderSignedIn() {
  const client = createTestQueryClient();
  client.setQueryData(['session'], desk);
  renderWithProviders(
    <RequireSession>
      <Routes>
        <Route path="/dashboard/prospective-members" element={<Prospects />} />
        <Route path="/dashboard/account-settings/security" element={<Security />} />
      </Routes>
    </RequireSession>,
    { route: '/dashboard/prospective-members', client },
  );
}

describe('RequireSession and the second-factor requirement (docs/product.md#second-factor)', () => {
  it("sends a member of staff the API refuses for a missing second factor to Security, with the requirement's message", async () => {
    server.use(http.get('/prospects', () => apiError(403, SECOND_FACTOR_MESSAGES.setupRequired)));
    renderSignedIn();
    expect((await screen.findByText(/^security /)).textContent).toBe(
      'security {"secondFactorSetupRequired":true}',
    );
  });

  it('leaves any other 403 to the screen (a role that may not do it)', async () => {
    server.use(http.get('/prospects', () => apiError(403, 'Your role does not allow this.')));
    renderSignedIn();
    expect(await screen.findByText('alert: Your role does not allow this.')).toBeTruthy();
    expect(screen.queryByText(/^security /)).toBeNull();
  });
});
