import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { Schema } from '@grove/api-contract';
import { INVITATION_INVALID_MESSAGE, MESSAGES } from '@grove/contracts';
import {
  apiError,
  createTestQueryClient,
  http,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { sessionKey } from '@grove/web-data-access';
import { AcceptInvitationPage } from './AcceptInvitationPage';

const staff: Schema<'SessionUser'> = {
  id: 'u2',
  email: 'renee@greenvalley.example',
  firstName: 'Renée',
  lastName: "O'Brien",
  username: "Renée O'Brien",
  role: 'front_desk',
  business: {
    id: 'b1',
    name: 'Green Valley Fitness',
    country: 'AU',
    locale: 'en-AU',
    currency: 'AUD',
    timeZone: 'Australia/Sydney',
  },
};

function Landing() {
  return <p>{`at ${useLocation().pathname}`}</p>;
}

/** Opens the invitation page as its link does, the token in the fragment. */
function openLink(token: string) {
  window.history.replaceState(null, '', `/accept-invitation#token=${token}`);
  const client = createTestQueryClient();
  client.setQueryData(sessionKey, null);
  renderWithProviders(
    <Routes>
      <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
      <Route path="*" element={<Landing />} />
    </Routes>,
    { route: '/accept-invitation', client },
  );
  return userEvent.setup();
}

describe('accepting an invitation (docs/product.md#staff-accounts)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('names the business and role, takes the token out of the address, checks the name and password, and signs in', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/team/invitations/lookup', ({ response }) =>
        response(200).json({
          businessName: 'Green Valley Fitness',
          email: 'renee@greenvalley.example',
          role: 'front_desk',
        }),
      ),
      http.post('/team/invitations/accept', async ({ request, response }) => {
        sent.push(await request.json());
        return response(200).json(staff);
      }),
    );
    const user = openLink('tok3n');
    expect(await screen.findByText(/invited to Green Valley Fitness as Front desk/)).toBeTruthy();
    expect(window.location.hash).toBe('');

    await user.type(screen.getByLabelText('First name'), 'Renée');
    await user.type(screen.getByLabelText('Last name'), "O'Brien");
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Join and sign in' }));
    expect(await screen.findByText(MESSAGES.passwordTooShort)).toBeTruthy();
    expect(sent).toEqual([]);

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'a long staff passphrase');
    await user.click(screen.getByRole('button', { name: 'Join and sign in' }));
    expect(await screen.findByText('at /dashboard')).toBeTruthy();
    expect(sent).toEqual([
      {
        token: 'tok3n',
        firstName: 'Renée',
        lastName: "O'Brien",
        password: 'a long staff passphrase',
      },
    ]);
  });

  it('says when the link is no longer valid', async () => {
    server.use(
      http.post('/team/invitations/lookup', () => apiError(400, INVITATION_INVALID_MESSAGE)),
    );
    openLink('used');
    expect(await screen.findByText(INVITATION_INVALID_MESSAGE)).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});
