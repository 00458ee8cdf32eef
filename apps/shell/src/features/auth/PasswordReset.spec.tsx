import { fetchFake, server } from '@grove/web-testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { MESSAGES, type SessionUser } from '@grove/contracts';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { LoginPage } from './LoginPage';
import { ResetPasswordPage } from './ResetPasswordPage';

const owner: SessionUser = {
  id: 'u1',
  email: 'dana@greenvalley.example',
  firstName: 'Dana',
  lastName: 'Green',
  username: 'Dana Green',
  business: {
    id: 'b1',
    name: 'Green Valley Fitness',
    country: 'AU',
    locale: 'en-AU',
    currency: 'AUD',
    timeZone: 'Australia/Sydney',
  },
};

/** Answers every fetch with `status` and `body`; returns the mock to read the requests. */
function reply(status: number, body: unknown) {
  const fetchMock = jest.fn(async () => ({
    ok: status < 400,
    status,
    text: async () => JSON.stringify(body),
  }));
  server.use(fetchFake(fetchMock));
  return fetchMock;
}

function Landing() {
  const location = useLocation();
  return <p>{`at ${location.pathname}`}</p>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['session'], null);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter
        initialEntries={[path]}
        future={{ v7_startTransition: true, v7_relativeSplatPath: true }}
      >
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="*" element={<Landing />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('forgot password (docs/product.md#forgot-password)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it("the login page's 'Forgot password?' opens the form with the email typed so far; it answers alike for any address", async () => {
    const fetchMock = reply(202, { message: MESSAGES.passwordResetSent });
    const user = renderAt('/login');
    await user.type(screen.getByLabelText('Email'), 'dana@greenvalley.example');
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'dana@greenvalley.example');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText(MESSAGES.passwordResetSent)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/password-reset',
      expect.objectContaining({ body: JSON.stringify({ email: 'dana@greenvalley.example' }) }),
    );
  });

  it('checks the address before asking', async () => {
    const fetchMock = reply(202, {});
    const user = renderAt('/forgot-password');
    await user.type(screen.getByLabelText('Email'), 'dana@');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes the token out of the address bar, checks the new password, then signs in and opens the dashboard', async () => {
    window.history.replaceState(null, '', '/reset-password#token=abc123');
    const fetchMock = reply(200, owner);
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
    expect(fetchMock).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByText(/^at /)).textContent).toBe('at /dashboard');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/password-reset/confirm',
      expect.objectContaining({
        body: JSON.stringify({ token: 'abc123', password: 'a brand new passphrase' }),
      }),
    );
  });

  it('a used or expired link says so and offers a new one', async () => {
    window.history.replaceState(null, '', '/reset-password#token=used');
    reply(400, { statusCode: 400, message: MESSAGES.passwordResetLinkInvalid });
    const user = renderAt('/reset-password');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText(MESSAGES.passwordResetLinkInvalid)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send me a new link' })).toBeTruthy();
  });

  it('a link without a token says so at once', () => {
    reply(200, {});
    renderAt('/reset-password');
    expect(screen.getByText(MESSAGES.passwordResetLinkInvalid)).toBeTruthy();
  });
});
