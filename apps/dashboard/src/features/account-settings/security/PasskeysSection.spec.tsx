import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PASSKEY_MESSAGES, SECOND_FACTOR_MESSAGES } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { PasskeysSection } from './PasskeysSection';

const LAPTOP: Schema<'Passkey'> = {
  id: '3f1c2a9e-8b7d-4c6e-9f01-2a3b4c5d6e7f',
  name: 'Siobhán’s laptop',
  backedUp: true,
  createdAt: '2026-03-02T09:30:00.000Z',
  lastUsedAt: null,
};

let passkeys: Schema<'Passkey'>[];
let sent: unknown[];
beforeEach(() => {
  passkeys = [LAPTOP];
  sent = [];
  server.use(
    http.get('/account/passkeys', ({ response }) => response(200).json(passkeys)),
    http.post('/account/passkeys/{id}/remove', async ({ request, params, response }) => {
      const body = (await request.json()) as { code?: string; password?: string };
      sent.push({ id: params.id, ...body });
      if (body.password !== 'my long harbour passphrase')
        return apiError(400, SECOND_FACTOR_MESSAGES.disableProofWrong);
      passkeys = [];
      return response(204).empty();
    }),
  );
});

describe('PasskeysSection (docs/product.md#passkeys)', () => {
  it('removes a passkey only after a code or the password; a wrong one is shown and nothing is removed', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PasskeysSection />);
    await user.click(await screen.findByRole('button', { name: 'Remove Siobhán’s laptop' }));
    // 'Remove' sends nothing by itself: it asks for the proof.
    expect(sent).toEqual([]);
    const field = screen.getByLabelText(
      'To remove this passkey, enter a code, a recovery code or your password',
    );
    await user.type(field, 'not my password');
    await user.click(screen.getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.disableProofWrong)).toBeTruthy();
    expect(screen.getByText('Siobhán’s laptop')).toBeTruthy();

    await user.type(field, 'my long harbour passphrase');
    await user.click(screen.getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
    expect(sent).toEqual([
      { id: LAPTOP.id, password: 'not my password' },
      { id: LAPTOP.id, password: 'my long harbour passphrase' },
    ]);
  });

  it('Cancel closes the proof without removing anything', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PasskeysSection />);
    await user.click(await screen.findByRole('button', { name: 'Remove Siobhán’s laptop' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remove passkey' })).toBeNull(),
    );
    expect(sent).toEqual([]);
  });

  it('keeps the last passkey of an account without a password of its own: no Remove, it says to set a password first', async () => {
    renderWithProviders(<PasskeysSection passwordSet={false} />);
    expect(await screen.findByText(PASSKEY_MESSAGES.lastWithoutPassword)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove Siobhán’s laptop' })).toBeNull();
  });

  it('offers Remove for each of two passkeys of such an account, and for the last one once a password is set', async () => {
    passkeys = [LAPTOP, { ...LAPTOP, id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'YubiKey' }];
    const { unmount } = renderWithProviders(<PasskeysSection passwordSet={false} />);
    expect(await screen.findByRole('button', { name: 'Remove YubiKey' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove Siobhán’s laptop' })).toBeTruthy();
    expect(screen.queryByText(PASSKEY_MESSAGES.lastWithoutPassword)).toBeNull();
    unmount();
    passkeys = [LAPTOP];
    renderWithProviders(<PasskeysSection passwordSet />);
    expect(await screen.findByRole('button', { name: 'Remove Siobhán’s laptop' })).toBeTruthy();
    expect(screen.queryByText(PASSKEY_MESSAGES.lastWithoutPassword)).toBeNull();
  });
});
