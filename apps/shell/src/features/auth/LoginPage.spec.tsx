import { createTestQueryClient, http, renderWithProviders, server } from '@grove/web-testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { SessionUser } from '@grove/contracts';
import { LoginPage } from './LoginPage';

const owner: SessionUser = {
  id: 'u1',
  email: 'dana@greenvalley.example',
  firstName: 'Dana',
  lastName: 'Green',
  username: 'Dana Green',
  role: 'owner',
  business: {
    id: 'b1',
    name: 'Green Valley Fitness',
    country: 'AU',
    locale: 'en-AU',
    currency: 'AUD',
    timeZone: 'Australia/Sydney',
  },
};

/** Shows where the login page sent the owner, with the router state it passed. */
function Landing() {
  const location = useLocation();
  return <p>{`at ${location.pathname} ${JSON.stringify(location.state)}`}</p>;
}

async function logIn(reply: SessionUser) {
  server.use(http.post('/auth/login', ({ response }) => response(200).json(reply)));
  const client = createTestQueryClient();
  client.setQueryData(['session'], null);
  renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="*" element={<Landing />} />
    </Routes>,
    { route: '/login', client },
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), owner.email);
  await user.type(screen.getByLabelText('Password'), 'gym12345');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('LoginPage', () => {
  it('opens the dashboard after a login', async () => {
    await logIn(owner);
    expect((await screen.findByText(/^at /)).textContent).toBe('at /dashboard null');
  });

  it("sends an owner whose password no longer meets the rule to Account Settings' change password", async () => {
    await logIn({ ...owner, passwordChangeRequired: true });
    expect((await screen.findByText(/^at /)).textContent).toBe(
      'at /dashboard/account-settings {"passwordChangeRequired":true}',
    );
  });
});
