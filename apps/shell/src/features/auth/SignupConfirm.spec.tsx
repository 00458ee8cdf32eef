import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { SIGNUP_CONFIRM_MESSAGES } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { sessionKey } from '@grove/web-data-access';
import { SignupConfirmPage } from './SignupConfirmPage';

const owner = {
  id: 'u1',
  email: 'siobhan@obrien.ie',
  firstName: 'Siobhán',
  lastName: "O'Brien",
  username: "Siobhán O'Brien",
  role: 'owner',
  business: { id: 'b1', name: "O'Brien Strength", country: 'IE' },
};

/** The tokens the fake API was sent. */
let sent: string[] = [];
beforeEach(() => {
  sent = [];
  server.use(
    http.post('/auth/signup/confirm', async ({ request, response }) => {
      const { token } = (await request.json()) as { token: string };
      sent.push(token);
      if (token === 'taken-token') return apiError(409, SIGNUP_CONFIRM_MESSAGES.accountExists);
      return token === 'good-token'
        ? response(201).json(owner as never)
        : apiError(400, SIGNUP_CONFIRM_MESSAGES.linkInvalid);
    }),
  );
});
const open = (hash: string) => {
  window.history.replaceState(null, '', `/signup/confirm${hash}`);
  return renderWithProviders(
    <Routes>
      <Route path="/signup/confirm" element={<SignupConfirmPage />} />
      <Route path="/dashboard" element={<h1>Branches</h1>} />
    </Routes>,
    { route: '/signup/confirm' },
  );
};

describe('SignupConfirmPage (docs/product.md#signup)', () => {
  const finish = () => fireEvent.click(screen.getByRole('button', { name: 'Finish signing up' }));

  it("posts nothing on load (a link scanner running the page does not use the link); 'Finish signing up' posts the token once, signs in and opens the dashboard; the token leaves the address bar", async () => {
    const { client } = open('#token=good-token');
    expect(window.location.hash).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);
    finish();
    expect(await screen.findByRole('heading', { name: 'Branches' })).toBeTruthy();
    expect(sent).toEqual(['good-token']);
    expect(client.getQueryData(sessionKey)).toMatchObject({ email: 'siobhan@obrien.ie' });
    expect(window.location.hash).toBe('');
  });

  it.each([
    ['#token=used-token', SIGNUP_CONFIRM_MESSAGES.linkInvalid],
    ['#token=taken-token', SIGNUP_CONFIRM_MESSAGES.accountExists],
  ])('%s: shows the message with links to sign up again and to log in', async (hash, message) => {
    open(hash);
    finish();
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up again' }).getAttribute('href')).toBe(
      '/signup',
    );
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
  });

  it('says the link is not valid without asking the API when it has no token', async () => {
    open('');
    expect(screen.getByText(SIGNUP_CONFIRM_MESSAGES.linkInvalid)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Finish signing up' })).toBeNull();
    await waitFor(() => expect(sent).toEqual([]));
  });
});
