import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, PASSKEY_MESSAGES } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { SetPasswordCard } from './SetPasswordCard';

// The browser's passkey prompt (WebAuthn) does not exist in jsdom: the person's passkey answers.
jest.mock('@grove/web-data-access', () => ({
  ...jest.requireActual('@grove/web-data-access'),
  answerPasskey: jest.fn(async () => ({ id: 'siobhan-laptop', type: 'public-key' })),
}));

const PASSWORD = 'Siobhán’s harbour passphrase';
let sent: unknown[];
let confirms: boolean;
beforeEach(() => {
  sent = [];
  confirms = true;
  server.use(
    http.post('/account/password/set/options', ({ response }) =>
      response(200).json({ options: { challenge: 'c2lvYmhhbg', allowCredentials: [] } }),
    ),
    http.post('/account/password/set', async ({ request, response }) => {
      const body = await request.json();
      sent.push(body);
      if (!confirms) return apiError(400, PASSKEY_MESSAGES.confirmFailed);
      return response(200).json({ message: MESSAGES.passwordSet });
    }),
  );
});

async function fill(password: string, confirm = password) {
  const user = userEvent.setup();
  renderWithProviders(<SetPasswordCard />);
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Set a password' }));
}

describe('SetPasswordCard (an account that joined with a passkey, docs/product.md#passkeys)', () => {
  it('sets the password with the passkey’s answer and says so', async () => {
    await fill(PASSWORD);
    expect(await screen.findByText(MESSAGES.passwordSet)).toBeTruthy();
    // The form is gone: a second set would be refused.
    expect(screen.queryByRole('button', { name: 'Set a password' })).toBeNull();
    expect(sent).toEqual([
      { newPassword: PASSWORD, response: { id: 'siobhan-laptop', type: 'public-key' } },
    ]);
  });

  it('refuses a short or mismatched password on the field and sends nothing', async () => {
    await fill('short', 'short');
    expect(await screen.findByText(MESSAGES.passwordTooShort)).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('shows a passkey that could not confirm it is them', async () => {
    confirms = false;
    await fill(PASSWORD);
    expect(await screen.findByText(PASSKEY_MESSAGES.confirmFailed)).toBeTruthy();
  });
});
