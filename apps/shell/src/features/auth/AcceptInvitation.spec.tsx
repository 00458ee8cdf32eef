import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { Schema } from '@grove/api-contract';
import { startRegistration } from '@simplewebauthn/browser';
import { INVITATION_INVALID_MESSAGE, MESSAGES, PASSKEY_MESSAGES } from '@grove/contracts';
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

jest.mock('@simplewebauthn/browser', () => ({
  ...jest.requireActual('@simplewebauthn/browser'),
  startRegistration: jest.fn(),
}));
const browserPrompt = jest.mocked(startRegistration);

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

  describe("with 'Use a passkey' instead of a password", () => {
    const codes = Array.from({ length: 10 }, (_, i) => `k${i}abc-defgh`);
    let sent: Record<string, unknown[]>;
    beforeEach(() => {
      sent = {};
      browserPrompt.mockReset();
      server.use(
        http.post('/team/invitations/lookup', ({ response }) =>
          response(200).json({
            businessName: 'Green Valley Fitness',
            email: 'renee@greenvalley.example',
            role: 'front_desk',
          }),
        ),
        http.post('/team/invitations/passkey/options', async ({ request, response }) => {
          (sent.options ??= []).push(await request.json());
          return response(200).json({ options: { challenge: 'ch4llenge' } });
        }),
        http.post('/team/invitations/passkey', async ({ request, response }) => {
          (sent.accept ??= []).push(await request.json());
          return response(200).json({ user: staff, recoveryCodes: codes });
        }),
      );
    });

    it('keeps the name typed, asks for a passkey name, adds the passkey, shows the recovery codes once, then opens the dashboard', async () => {
      browserPrompt.mockResolvedValue({ id: 'cr3d' } as never);
      const user = openLink('tok3n');
      await user.type(await screen.findByLabelText('First name'), 'Zoë');
      await user.type(screen.getByLabelText('Last name'), "D'Arcy-Nguyễn");
      await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
      expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Zoë');
      expect(screen.queryByLabelText('Password')).toBeNull();

      await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
      expect(await screen.findByText(PASSKEY_MESSAGES.nameMissing)).toBeTruthy();
      expect(sent.options).toBeUndefined();
      expect(browserPrompt).not.toHaveBeenCalled();

      await user.type(screen.getByLabelText('Passkey name'), 'Work laptop');
      await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
      expect(await screen.findByText('You joined with your passkey.')).toBeTruthy();
      const fields = {
        token: 'tok3n',
        firstName: 'Zoë',
        lastName: "D'Arcy-Nguyễn",
        passkeyName: 'Work laptop',
      };
      expect(sent.options).toEqual([fields]);
      expect(browserPrompt).toHaveBeenCalledWith({ optionsJSON: { challenge: 'ch4llenge' } });
      expect(sent.accept).toEqual([{ ...fields, response: { id: 'cr3d' } }]);
      const list = screen.getByRole('list', { name: 'Recovery codes' });
      expect(list.querySelectorAll('li')).toHaveLength(10);

      await user.click(screen.getByRole('button', { name: 'I have saved them' }));
      expect(await screen.findByText('at /dashboard')).toBeTruthy();
    });

    it('says when the prompt was cancelled, joins nothing, and can go back to a password', async () => {
      browserPrompt.mockRejectedValue(
        Object.assign(new Error('cancelled'), { name: 'NotAllowedError' }),
      );
      const user = openLink('tok3n');
      await user.click(await screen.findByRole('button', { name: 'Use a passkey' }));
      await user.type(screen.getByLabelText('First name'), 'Siobhán');
      await user.type(screen.getByLabelText('Last name'), "O'Brien");
      await user.type(screen.getByLabelText('Passkey name'), 'Phone');
      await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
      expect(await screen.findByText(PASSKEY_MESSAGES.cancelled)).toBeTruthy();
      expect(sent.accept).toBeUndefined();

      await user.click(screen.getByRole('button', { name: 'Set a password instead' }));
      expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe("O'Brien");
      expect(screen.getByLabelText('Password')).toBeTruthy();
    });
  });
});
