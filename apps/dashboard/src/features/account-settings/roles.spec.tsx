import { screen } from '@testing-library/react';
import type { Schema } from '@grove/api-contract';
import type { StaffRole } from '@grove/contracts';
import { sessionKey } from '@grove/web-data-access';
import { createTestQueryClient, http, renderWithProviders, server } from '@grove/web-testing';
import { AccountSettingsPage } from './AccountSettingsPage';

const session = (role: StaffRole): Schema<'SessionUser'> => ({
  id: 'u1',
  email: 'renee@harbour.example',
  firstName: 'Renée',
  lastName: "O'Brien",
  username: "Renée O'Brien",
  role,
  business: {
    id: 'b1',
    name: "O'Brien's Boxing",
    country: 'AU',
    locale: 'en-AU',
    currency: 'AUD',
    timeZone: 'Australia/Sydney',
  },
});

/** Which cards asked the fake API for their data. */
let asked: string[];
beforeEach(() => {
  asked = [];
  const answer = (path: string, body: unknown) =>
    http.get(path as '/account', ({ response }) => {
      asked.push(path);
      return response(200).json(body as never);
    });
  server.use(
    answer('/account', {
      firstName: 'Renée',
      lastName: "O'Brien",
      email: 'renee@harbour.example',
      businessName: "O'Brien's Boxing",
      country: 'AU',
      timeZone: 'Australia/Sydney',
      phoneNumber: '0412 345 678',
      website: 'obriens.example',
    }),
    answer('/account/sessions', []),
    answer('/account/second-factor', {
      totp: false,
      recoveryCodesLeft: 0,
      businessRequires: false,
    }),
    answer('/team', { members: [], invitations: [] }),
  );
});

function renderAs(role: StaffRole) {
  const client = createTestQueryClient();
  client.setQueryData(sessionKey, session(role));
  renderWithProviders(<AccountSettingsPage />, { client });
}

describe('Account Settings shows each role only what it may change (docs/product.md#staff-accounts)', () => {
  it.each(['manager', 'front_desk', 'viewer'] as const)(
    'hides Billing and Team from %s, and asks the API for neither',
    async (role) => {
      renderAs(role);
      expect(await screen.findByDisplayValue('Renée')).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'Change password' })).toBeTruthy();
      // Every role manages their own second factor.
      expect(screen.getByRole('heading', { name: 'Security' })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Team' })).toBeNull();
      expect(screen.queryByRole('heading', { name: /Billing/ })).toBeNull();
      expect(asked).not.toContain('/team');
    },
  );

  it.each(['front_desk', 'viewer'] as const)(
    "hides the business's settings (defaults, emails, share message, branch rule) from %s",
    async (role) => {
      renderAs(role);
      await screen.findByDisplayValue('Renée');
      expect(screen.queryByRole('heading', { name: 'Defaults for new members' })).toBeNull();
      expect(screen.queryByRole('heading', { name: 'Message members share' })).toBeNull();
      expect(screen.queryByRole('heading', { name: 'When a branch counts' })).toBeNull();
    },
  );

  it('shows the Team card to an owner', async () => {
    renderAs('owner');
    expect(await screen.findByRole('heading', { name: 'Team' })).toBeTruthy();
  });
});
