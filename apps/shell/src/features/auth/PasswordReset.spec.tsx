import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { Schema } from '@grove/api-contract';
import { MESSAGES } from '@grove/contracts';
import {
  apiError,
  createTestQueryClient,
  http,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { sessionKey } from '@grove/web-data-access';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { LoginPage } from './LoginPage';
import { ResetPasswordPage } from './ResetPasswordPage';

const owner: Schema<'SessionUser'> = {
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

/** Every request the fake API received, as its method and path. */
function recordRequests(): string[] {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
  });
  return seen;
}

function Landing() {
  const location = useLocation();
  return <p>{`at ${location.pathname}`}</p>;
}

function renderAt(path: string) {
  const client = createTestQueryClient();
  client.setQueryData(sessionKey, null);
  renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="*" element={<Landing />} />
    </Routes>,
    { route: path, client },
  );
  return userEvent.setup();
}

describe('forgot password (docs/product.md#forgot-password)', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    server.events.removeAllListeners();
  });

  it("the login page's 'Forgot password?' opens the form with the email typed so far; it answers alike for any address", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/auth/password-reset', async ({ request, response }) => {
        sent.push(await request.json());
        return response(202).json({ message: MESSAGES.passwordResetSent });
      }),
    );
    const user = renderAt('/login');
    await user.type(screen.getByLabelText('Email'), 'dana@greenvalley.example');
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'dana@greenvalley.example');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText(MESSAGES.passwordResetSent)).toBeTruthy();
    expect(sent).toEqual([{ email: 'dana@greenvalley.example' }]);
  });

  it('checks the address before asking', async () => {
    const seen = recordRequests();
    const user = renderAt('/forgot-password');
    await user.type(screen.getByLabelText('Email'), 'dana@');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(seen).toEqual([]);
  });

  it('takes the token out of the address bar, checks the new password, then signs in and opens the dashboard', async () => {
    window.history.replaceState(null, '', '/reset-password#token=abc123');
    const sent: unknown[] = [];
    server.use(
      http.post('/auth/password-reset/confirm', async ({ request, response }) => {
        sent.push(await request.json());
        return response(200).json(owner);
      }),
    );
    const user = renderAt('/reset-password');
    expect(window.location.hash).toBe('');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText(MESSAGES.passwordTooShort)).toBeTruthy();
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase!');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText(MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    expect(sent).toEqual([]);
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByText(/^at /)).textContent).toBe('at /dashboard');
    expect(sent).toEqual([{ token: 'abc123', password: 'a brand new passphrase' }]);
  });

  it('a used or expired link says so and offers a new one', async () => {
    window.history.replaceState(null, '', '/reset-password#token=used');
    server.use(
      http.post('/auth/password-reset/confirm', () =>
        apiError(400, MESSAGES.passwordResetLinkInvalid),
      ),
    );
    const user = renderAt('/reset-password');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText(MESSAGES.passwordResetLinkInvalid)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send me a new link' })).toBeTruthy();
  });

  it('a link without a token says so at once', () => {
    renderAt('/reset-password');
    expect(screen.getByText(MESSAGES.passwordResetLinkInvalid)).toBeTruthy();
  });
});
