import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SECOND_FACTOR_MESSAGES } from '@grove/contracts';
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
});
