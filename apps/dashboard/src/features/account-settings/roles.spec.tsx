import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import { hrefs, type StaffRole } from '@grove/contracts';
import { sessionKey } from '@grove/web-data-access';
import { createTestQueryClient, http, server } from '@grove/web-testing';
import { renderAccountSettings } from './account-settings.testing';

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
    answer('/billing', {
      enabled: true,
      state: 'free',
      membersThroughGrove: 0,
      freeMembers: 2,
      priceCents: 9_900,
      currency: 'AUD',
      graceEndsAt: null,
      paused: false,
      nextChargeAt: null,
      nextChargeCents: null,
      cancelAtPeriodEnd: false,
      canManage: false,
    }),
  );
});

function renderAs(role: StaffRole, path: string = hrefs.accountSettings) {
  const client = createTestQueryClient();
  client.setQueryData(sessionKey, session(role));
  renderAccountSettings({ client, path });
}

/** The sections the navigation offers. */
const sectionLinks = () =>
  Array.from(
    screen.getByRole('navigation', { name: 'Settings' }).querySelectorAll('a'),
    (link) => link.textContent,
  );

describe('Account Settings shows each role only what it may change (docs/product.md#staff-accounts)', () => {
  it.each([
    [
      'owner',
      [
        'Your details',
        'Security',
        'Members & rewards',
        'Emails & sharing',
        'Team',
        'Billing',
        'Your data',
      ],
    ],
    ['manager', ['Your details', 'Security', 'Members & rewards', 'Emails & sharing']],
    ['front_desk', ['Your details', 'Security']],
    ['viewer', ['Your details', 'Security']],
  ] as const)('offers %s the sections %j', async (role, sections) => {
    renderAs(role);
    expect(await screen.findByDisplayValue('Renée')).toBeTruthy();
    await waitFor(() => expect(sectionLinks()).toEqual(sections));
  });

  it.each(['manager', 'front_desk', 'viewer'] as const)(
    'shows %s Your details at the Team and Billing addresses, and asks the API for neither',
    async (role) => {
      for (const path of [hrefs.accountTeam, hrefs.billing]) {
        renderAs(role, path);
        expect(await screen.findByDisplayValue('Renée')).toBeTruthy();
        expect(screen.queryByRole('heading', { name: 'Team' })).toBeNull();
        expect(screen.queryByRole('heading', { name: /Billing/ })).toBeNull();
        cleanup();
      }
      expect(asked).not.toContain('/team');
      expect(asked).not.toContain('/billing');
    },
  );

  it.each(['front_desk', 'viewer'] as const)(
    "shows %s none of the business's settings at their addresses",
    async (role) => {
      for (const path of [hrefs.accountMembers, hrefs.accountEmails]) {
        renderAs(role, path);
        await screen.findByDisplayValue('Renée');
        expect(screen.queryByRole('heading', { name: 'Defaults for new members' })).toBeNull();
        expect(screen.queryByRole('heading', { name: 'Message members share' })).toBeNull();
        expect(screen.queryByRole('heading', { name: 'When a branch counts' })).toBeNull();
        cleanup();
      }
    },
  );

  it.each(['front_desk', 'viewer'] as const)(
    "lets %s change their own name, shows the business's details read-only, and sends only the name",
    async (role) => {
      const sent: unknown[] = [];
      server.use(
        http.patch('/account', async ({ request, response }) => {
          const body = (await request.json()) as Record<string, string>;
          sent.push(body);
          return response(200).json({
            firstName: body.firstName,
            lastName: body.lastName,
            email: 'renee@harbour.example',
            businessName: "O'Brien's Boxing",
            country: 'AU',
            timeZone: 'Australia/Sydney',
            phoneNumber: '0412 345 678',
            website: 'obriens.example',
          });
        }),
      );
      const user = userEvent.setup();
      renderAs(role);
      const firstName = await screen.findByDisplayValue('Renée');
      expect(screen.queryByLabelText('Business name')).toBeNull();
      expect(screen.queryByLabelText('Country')).toBeNull();
      expect(screen.getByLabelText('Your business').textContent).toContain("O'Brien's Boxing");
      await user.clear(firstName);
      await user.type(firstName, 'Renée-Claire');
      await user.click(screen.getByRole('button', { name: 'Save details' }));
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0]).toEqual({ firstName: 'Renée-Claire', lastName: "O'Brien" });
    },
  );

  it('shows the Team card to an owner at its address', async () => {
    renderAs('owner', hrefs.accountTeam);
    expect(await screen.findByRole('heading', { name: 'Team' })).toBeTruthy();
  });
});
