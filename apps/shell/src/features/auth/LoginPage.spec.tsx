import {
  apiError,
  createTestQueryClient,
  http,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { PASSKEY_MESSAGES, SECOND_FACTOR_MESSAGES, type SessionUser } from '@grove/contracts';
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

type Step = { secondFactorRequired: true; challenge: string; totp: boolean; passkey: boolean };

async function logIn(reply: SessionUser | Step) {
  server.use(
    http.post('/auth/login', ({ response }) =>
      'secondFactorRequired' in reply ? response(202).json(reply) : response(200).json(reply),
    ),
  );
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
      'at /dashboard/account-settings/security {"passwordChangeRequired":true}',
    );
  });

  it('sends a member of staff whose business requires a second factor to set one up', async () => {
    await logIn({ ...owner, role: 'front_desk', secondFactorSetupRequired: true });
    expect((await screen.findByText(/^at /)).textContent).toBe(
      'at /dashboard/account-settings/security {"secondFactorSetupRequired":true}',
    );
  });

  it('asks an account with an authenticator app for its code, then opens the dashboard', async () => {
    let sent: unknown = null;
    server.use(
      http.post('/auth/second-factor', async ({ request, response }) => {
        sent = await request.json();
        return response(200).json(owner);
      }),
    );
    await logIn({ secondFactorRequired: true, challenge: 'chal-1', totp: true, passkey: false });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(screen.getByText(SECOND_FACTOR_MESSAGES.codeInvalid)).toBeTruthy();
    await user.type(screen.getByLabelText('Code'), '492 039');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByText(/^at /)).textContent).toBe('at /dashboard null');
    expect(sent).toEqual({ challenge: 'chal-1', code: '492 039' });
  });

  it('shows a wrong code, and sends the owner back to the password when the sign-in expired', async () => {
    let replies = 0;
    server.use(
      http.post('/auth/second-factor', () => {
        replies += 1;
        return replies === 1
          ? apiError(400, SECOND_FACTOR_MESSAGES.codeWrong)
          : apiError(401, SECOND_FACTOR_MESSAGES.challengeExpired);
      }),
    );
    await logIn({ secondFactorRequired: true, challenge: 'chal-2', totp: true, passkey: false });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.codeWrong)).toBeTruthy();
    await user.type(screen.getByLabelText('Code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.challengeExpired)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('offers the passkey of an account that has one (no app: recovery codes still work), asking for that sign-in’s options', async () => {
    let sent: unknown = null;
    server.use(
      http.post('/auth/passkey/options', async ({ request, response }) => {
        sent = await request.json();
        return response(200).json({ options: { challenge: 'abc', rpId: 'localhost' } });
      }),
    );
    await logIn({ secondFactorRequired: true, challenge: 'chal-3', totp: false, passkey: true });
    expect(await screen.findByRole('heading', { name: 'Use your passkey' })).toBeTruthy();
    expect(screen.getByLabelText('Code')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Use your passkey' }));
    // jsdom has no WebAuthn: the person is told so, and stays on the step.
    expect(await screen.findByText(PASSKEY_MESSAGES.unsupported)).toBeTruthy();
    expect(sent).toEqual({ challenge: 'chal-3' });
  });
});
