import { fetchFake, server } from '@grove/web-testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { BRANCH_SETTINGS_DAYS_INVALID, MESSAGES, type AccountDetails } from '@grove/contracts';
import { AccountSettingsPage } from './AccountSettingsPage';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

const account: AccountDetails = {
  firstName: 'Dana',
  lastName: 'Green',
  email: 'dana@greenvalley.example',
  businessName: 'Green Valley Fitness',
  country: 'AU',
  timeZone: 'Australia/Sydney',
  phoneNumber: '0412 345 678',
  website: 'greenvalley.com.au',
};

const fetchMock = jest.fn();
beforeEach(() => {
  fetchMock.mockReset();
  server.use(fetchFake(fetchMock));
});

async function renderPage(state: unknown = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter
        initialEntries={[{ pathname: '/dashboard/account-settings', state }]}
        future={{ v7_startTransition: true, v7_relativeSplatPath: true }}
      >
        <AccountSettingsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await screen.findByDisplayValue('Dana');
}

/** Fills 'Change password' (clearing what the fields held) and submits it. */
async function submitPasswordChange(
  user: ReturnType<typeof userEvent.setup>,
  current: string,
  next: string,
) {
  for (const [label, value] of [
    ['Current password', current],
    ['New password', next],
    ['Confirm new password', next],
  ]) {
    await user.clear(screen.getByLabelText(label));
    await user.type(screen.getByLabelText(label), value);
  }
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

const calls = (path: string) => fetchMock.mock.calls.filter(([url]) => url === path);

describe('AccountSettingsPage', () => {
  it("shows the owner's details, checks them with signup's rules and saves them", async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/account' && init?.method === 'PATCH') {
        return reply(200, { ...account, ...JSON.parse(String(init.body)) });
      }
      if (url === '/api/account') return reply(200, account);
      if (url === '/api/settings/member-emails')
        return reply(200, {
          friendJoined: true,
          branchCounting: true,
          branchEnded: true,
          welcome: true,
        });
      if (url === '/api/settings/branches') return reply(200, { rule: 'approval', days: null });
      if (url === '/api/settings/member-defaults')
        return reply(200, { discountCents: 1500, membershipPriceCents: null });
      return reply(200, null);
    });
    await renderPage();
    expect(await screen.findByRole('heading', { name: 'Emails to members' })).toBeTruthy();
    expect(await screen.findByLabelText(/When I approve them/)).toBeTruthy();
    expect(await screen.findByDisplayValue('15.00')).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByLabelText('Business name') as HTMLInputElement).value).toBe(
      'Green Valley Fitness',
    );

    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'R1ley');
    await user.clear(screen.getByLabelText('Phone number'));
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText(MESSAGES.signupInvalidName)).toBeTruthy();
    expect(screen.getByText(MESSAGES.fillAllFields)).toBeTruthy();
    expect(calls('/api/account').some(([, init]) => init?.method === 'PATCH')).toBe(false);

    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Riley');
    await user.type(screen.getByLabelText('Phone number'), '0498 765 432');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect((await screen.findByRole('status')).textContent).toBe(MESSAGES.accountSaved);
    const patch = calls('/api/account').find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(patch?.[1].body)).toMatchObject({
      firstName: 'Riley',
      phoneNumber: '0498 765 432',
    });
  });

  it('reads the phone number for the chosen country (docs/product.md#country)', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/account' && init?.method === 'PATCH')
        return reply(200, { ...account, ...JSON.parse(String(init.body)) });
      if (url === '/api/account') return reply(200, account);
      return reply(200, null);
    });
    await renderPage();
    await screen.findByDisplayValue('Green Valley Fitness');
    expect(
      screen.getByText('Australia (+61) numbers, or any number in international format.'),
    ).toBeTruthy();
    await user.clear(screen.getByLabelText('Phone number'));
    await user.type(screen.getByLabelText('Phone number'), '(415) 555-0134');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText(MESSAGES.signupInvalidPhone)).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Country'), 'US');
    expect(
      screen.getByText('United States (+1) numbers, or any number in international format.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText(MESSAGES.accountSaved)).toBeTruthy();
    const patch = calls('/api/account').find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(patch?.[1].body)).toMatchObject({
      country: 'US',
      phoneNumber: '(415) 555-0134',
    });
  });

  it('refuses a short or unconfirmed new password and shows a wrong current password on its field', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/account') return reply(200, account);
      if (url === '/api/account/password') {
        return reply(400, {
          statusCode: 400,
          message: MESSAGES.currentPasswordWrong,
          fieldErrors: { currentPassword: MESSAGES.currentPasswordWrong },
        });
      }
      return reply(200, null);
    });
    await renderPage();
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(MESSAGES.currentPasswordRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordTooShort)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    expect(calls('/api/account/password')).toHaveLength(0);

    await submitPasswordChange(user, 'not my password', 'a long new password');

    const current = screen.getByLabelText('Current password');
    await waitFor(() =>
      expect(
        document.getElementById(current.getAttribute('aria-describedby') ?? '')?.textContent,
      ).toBe(MESSAGES.currentPasswordWrong),
    );
    expect(document.activeElement).toBe(current);
  });

  it('asks for a new password when the login sent the owner here, until it is changed; the API refuses a common one on its field', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/account') return reply(200, account);
      if (url === '/api/account/password') {
        attempts += 1;
        return attempts === 1
          ? reply(400, {
              statusCode: 400,
              message: MESSAGES.passwordTooCommon,
              fieldErrors: { newPassword: MESSAGES.passwordTooCommon },
            })
          : reply(200, { message: MESSAGES.passwordChanged });
      }
      return reply(200, null);
    });
    await renderPage({ passwordChangeRequired: true });
    expect(screen.getByText(MESSAGES.passwordChangeRequired)).toBeTruthy();

    await submitPasswordChange(user, 'gym12345', 'password1234');
    expect(await screen.findByText(MESSAGES.passwordTooCommon)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordChangeRequired)).toBeTruthy();

    await submitPasswordChange(user, 'gym12345', 'squats at seven am');
    expect(await screen.findByText(MESSAGES.passwordChanged)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.passwordChangeRequired)).toBeNull();
  });

  it('"When a branch counts": days need a whole number from 1 to 365; the rule is saved with its days', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/account') return reply(200, account);
      if (url === '/api/settings/branches' && init?.method === 'PUT')
        return reply(200, JSON.parse(String(init.body)));
      if (url === '/api/settings/branches') return reply(200, { rule: 'approval', days: null });
      if (url === '/api/settings/member-defaults')
        return reply(200, { discountCents: 1500, membershipPriceCents: null });
      return reply(200, null);
    });
    await renderPage();
    const approval = (await screen.findByLabelText(/When I approve them/)) as HTMLInputElement;
    expect(approval.checked).toBe(true);
    expect(screen.getByText(/Grove cannot see the payments of friends added by hand/)).toBeTruthy();
    expect(screen.queryByLabelText('Days as a member')).toBeNull();

    await user.click(screen.getByLabelText(/After some days as a member/));
    await user.type(screen.getByLabelText('Days as a member'), '400');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText(BRANCH_SETTINGS_DAYS_INVALID)).toBeTruthy();
    expect(calls('/api/settings/branches').some(([, init]) => init?.method === 'PUT')).toBe(false);

    await user.clear(screen.getByLabelText('Days as a member'));
    await user.type(screen.getByLabelText('Days as a member'), '30');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    const put = calls('/api/settings/branches').find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(put?.[1].body)).toEqual({ rule: 'days', days: 30 });
  });

  it('shows no such notice on a plain visit', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/account' ? reply(200, account) : reply(200, null),
    );
    await renderPage();
    expect(screen.queryByText(MESSAGES.passwordChangeRequired)).toBeNull();
  });
});
