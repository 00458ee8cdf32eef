import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  BRANCH_SETTINGS_DAYS_INVALID,
  DEFAULT_SHARE_MESSAGE,
  hrefs,
  MESSAGES,
} from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { apiError, http, server } from '@grove/web-testing';
import { renderAccountSettings } from './account-settings.testing';

const account: Schema<'AccountDetails'> = {
  firstName: 'Dana',
  lastName: 'Green',
  email: 'dana@greenvalley.example',
  businessName: 'Green Valley Fitness',
  country: 'AU',
  timeZone: 'Australia/Sydney',
  phoneNumber: '0412 345 678',
  website: 'greenvalley.com.au',
};

/** The owner's live sign-ins as the fake API has them (each test starts with these three). */
const THREE_SIGN_INS: Schema<'SignedInSession'>[] = [
  {
    id: '3f1c2a5e-8d7b-4c1e-9a2f-0b6d5e4c3a21',
    device: 'Chrome 120 on Windows',
    signedInAt: '2026-11-20T09:30:00.000Z',
    lastActiveAt: '2026-11-28T22:10:00.000Z',
    current: true,
  },
  {
    id: '7a9e0c3d-1b2f-4d5e-8f6a-9b0c1d2e3f4a',
    device: 'Safari 17 on iOS',
    signedInAt: '2026-11-25T07:05:00.000Z',
    lastActiveAt: '2026-11-27T18:45:00.000Z',
    current: false,
  },
  {
    id: 'c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f',
    device: 'Firefox 121 on Linux',
    signedInAt: '2026-11-01T12:00:00.000Z',
    lastActiveAt: '2026-11-02T12:00:00.000Z',
    current: false,
  },
];
let signIns = THREE_SIGN_INS;

/** The bodies the page sent, by 'METHOD /path' (relative to /api, as the client's paths). */
let sent: Record<string, unknown[]> = {};
const record = (key: string, body: unknown) => (sent[key] ??= []).push(body);
const bodiesOf = (key: string) => sent[key] ?? [];

/** A fake API answering every card of the page; a test replaces the routes it is about. */
beforeEach(() => {
  sent = {};
  signIns = THREE_SIGN_INS;
  server.use(
    http.get('/account', ({ response }) => response(200).json(account)),
    // Billing's own spec is features/billing; here an operator without billing (GROVE_BILLING=off).
    http.get('/billing', ({ response }) =>
      response(200).json({
        enabled: false,
        state: 'free',
        membersThroughGrove: 0,
        freeMembers: 2,
        priceCents: 9_900,
        currency: 'USD',
        graceEndsAt: null,
        paused: false,
        nextChargeAt: null,
        nextChargeCents: null,
        cancelAtPeriodEnd: false,
        canManage: false,
        invoices: [],
      }),
    ),
    http.patch('/account', async ({ request, response }) => {
      const body = await request.json();
      record('PATCH /account', body);
      return response(200).json({ ...account, ...body });
    }),
    http.get('/settings/member-emails', ({ response }) =>
      response(200).json({
        friendJoined: true,
        branchCounting: true,
        branchEnded: true,
        welcome: true,
      }),
    ),
    http.get('/settings/branches', ({ response }) =>
      response(200).json({ rule: 'approval', days: null }),
    ),
    http.get('/account/sessions', ({ response }) => response(200).json(signIns)),
    http.get('/account/second-factor', ({ response }) =>
      response(200).json({
        totp: false,
        passkeys: 0,
        hasFactor: false,
        recoveryCodesLeft: 0,
        businessRequires: false,
        passwordSet: true,
      }),
    ),
    http.delete('/account/sessions/{id}', ({ params, response }) => {
      record('DELETE /account/sessions', params.id);
      signIns = signIns.filter((row) => row.id !== params.id);
      return response(204).empty();
    }),
    http.post('/account/sessions/sign-out-others', ({ response }) => {
      const ended = signIns.filter((row) => !row.current).length;
      signIns = signIns.filter((row) => row.current);
      return response(200).json({ ended });
    }),
    http.put('/settings/branches', async ({ request, response }) => {
      const body = await request.json();
      record('PUT /settings/branches', body);
      return response(200).json({ rule: body.rule, days: body.days ?? null });
    }),
    http.get('/settings/member-defaults', ({ response }) =>
      response(200).json({ discountCents: 1500, membershipPriceCents: null }),
    ),
    http.get('/settings/share-message', ({ response }) =>
      response(200).json({ message: DEFAULT_SHARE_MESSAGE }),
    ),
    http.get('/settings/referral-nudges', ({ response }) =>
      response(200).json({
        inviteAfterDays: null,
        reminderAfterDays: null,
        monthlySummary: false,
        visitsAvailable: false,
        visitChecksPerWeek: 0,
        mindbodyMembers: 0,
      }),
    ),
    http.get('/settings/welcome-offer', ({ response }) =>
      response(200).json({
        kind: 'none',
        amountCents: null,
        percent: null,
        months: null,
        text: null,
      }),
    ),
    // The Team card (issue 34; its own spec is TeamCard.spec.tsx): the owner alone.
    http.get('/team', ({ response }) => response(200).json({ members: [], invitations: [] })),
  );
});

/**
 * Renders the page as the shell does, at one section's address, with the router state a login
 * may leave; waits for that section's first card.
 */
async function renderPage({
  path = hrefs.accountSettings,
  state = null,
}: { path?: string; state?: unknown } = {}) {
  renderAccountSettings({ path, state });
  if (path === hrefs.accountSettings && state === null) await screen.findByDisplayValue('Dana');
  else await screen.findByRole('heading', { name: /Change password|Defaults for new members/ });
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

// These tests type whole forms with user-event (about 1–2 s each on a quiet machine); on a busy
// 2-core machine they passed jest's 5 s default only sometimes.
jest.setTimeout(30_000);

describe('AccountSettingsPage', () => {
  it("shows the owner's details, checks them with signup's rules and saves them", async () => {
    const user = userEvent.setup();
    await renderPage();
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
    expect(bodiesOf('PATCH /account')).toEqual([]);

    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Riley');
    await user.type(screen.getByLabelText('Phone number'), '0498 765 432');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect((await screen.findByRole('status')).textContent).toBe(MESSAGES.accountSaved);
    expect(bodiesOf('PATCH /account')[0]).toMatchObject({
      firstName: 'Riley',
      phoneNumber: '0498 765 432',
    });
  });

  it('reads the phone number for the chosen country (docs/product.md#country)', async () => {
    const user = userEvent.setup();
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
    expect(bodiesOf('PATCH /account')[0]).toMatchObject({
      country: 'US',
      phoneNumber: '(415) 555-0134',
    });
  });

  it('refuses a short or unconfirmed new password and shows a wrong current password on its field', async () => {
    const user = userEvent.setup();
    let passwordChanges = 0;
    server.use(
      http.post('/account/password', () => {
        passwordChanges += 1;
        return apiError(400, MESSAGES.currentPasswordWrong, {
          currentPassword: MESSAGES.currentPasswordWrong,
        });
      }),
    );
    await renderPage({ path: hrefs.accountSecurity });
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(MESSAGES.currentPasswordRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordTooShort)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    expect(passwordChanges).toBe(0);

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
    server.use(
      http.post('/account/password', ({ response }) => {
        attempts += 1;
        return attempts === 1
          ? apiError(400, MESSAGES.passwordTooCommon, { newPassword: MESSAGES.passwordTooCommon })
          : response(200).json({ message: MESSAGES.passwordChanged });
      }),
    );
    await renderPage({ state: { passwordChangeRequired: true } });
    expect(await screen.findByText(MESSAGES.passwordChangeRequired)).toBeTruthy();

    await submitPasswordChange(user, 'gym12345', 'password1234');
    expect(await screen.findByText(MESSAGES.passwordTooCommon)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordChangeRequired)).toBeTruthy();

    await submitPasswordChange(user, 'gym12345', 'squats at seven am');
    expect(await screen.findByText(MESSAGES.passwordChanged)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.passwordChangeRequired)).toBeNull();
  });

  it('"When a branch counts": days need a whole number from 1 to 365; the rule is saved with its days', async () => {
    const user = userEvent.setup();
    await renderPage({ path: hrefs.accountMembers });
    const approval = (await screen.findByLabelText(/When I approve them/)) as HTMLInputElement;
    expect(approval.checked).toBe(true);
    expect(screen.getByText(/Grove cannot see the payments of friends added by hand/)).toBeTruthy();
    expect(screen.queryByLabelText('Days as a member')).toBeNull();

    await user.click(screen.getByLabelText(/After some days as a member/));
    await user.type(screen.getByLabelText('Days as a member'), '400');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText(BRANCH_SETTINGS_DAYS_INVALID)).toBeTruthy();
    expect(bodiesOf('PUT /settings/branches')).toEqual([]);

    await user.clear(screen.getByLabelText('Days as a member'));
    await user.type(screen.getByLabelText('Days as a member'), '30');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(bodiesOf('PUT /settings/branches')[0]).toEqual({ rule: 'days', days: 30 });
  });

  it('shows no such notice on a plain visit', async () => {
    await renderPage({ path: hrefs.accountSecurity });
    expect(screen.queryByText(MESSAGES.passwordChangeRequired)).toBeNull();
  });

  it("'Where you’re signed in' lists each browser, this one marked; Sign out ends one, then everywhere else the rest", async () => {
    const user = userEvent.setup();
    await renderPage({ path: hrefs.accountSecurity });
    const list = await screen.findByRole('list', { name: 'Where you’re signed in' });
    const items = () => Array.from(list.querySelectorAll('li')).map((item) => item.textContent);
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items()[0]).toContain('Chrome 120 on Windows');
    expect(items()[0]).toContain('This browser');
    expect(items()[1]).toContain('Safari 17 on iOS');
    // This browser has no 'Sign out' of its own (that is 'Log out').
    expect(
      screen.getAllByRole('button', { name: /^Sign out Safari|^Sign out Firefox/ }),
    ).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: /^Sign out Safari 17 on iOS/ }));
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(bodiesOf('DELETE /account/sessions')).toEqual(['7a9e0c3d-1b2f-4d5e-8f6a-9b0c1d2e3f4a']);

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByText('Signed out 1 other browser')).toBeTruthy();
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
  });

  it('opens each section at its own address from the navigation', async () => {
    const user = userEvent.setup();
    await renderPage();
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    const links = () => Array.from(nav.querySelectorAll('a')).map((link) => link.textContent);
    // An owner, with Grove's billing off (this fake API): every section but Billing.
    await waitFor(() =>
      expect(links()).toEqual([
        'Your details',
        'Security',
        'Members & rewards',
        'Emails & sharing',
        'Team',
        'Your data',
      ]),
    );
    expect(screen.getByRole('link', { name: 'Your details' }).getAttribute('aria-current')).toBe(
      'page',
    );

    await user.click(screen.getByRole('link', { name: 'Emails & sharing' }));
    expect(await screen.findByRole('heading', { name: 'Emails to members' })).toBeTruthy();
    expect(screen.queryByLabelText('First name')).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Emails & sharing' }).getAttribute('aria-current'),
    ).toBe('page');
  });

  it('opens Members & rewards for the checklist’s old #member-defaults address', async () => {
    renderAccountSettings({ path: '/dashboard/account-settings#member-defaults' });
    expect(await screen.findByRole('heading', { name: 'Defaults for new members' })).toBeTruthy();
    expect(await screen.findByDisplayValue('15.00')).toBeTruthy();
  });

  it('shows Your details for the address of a section that does not exist', async () => {
    renderAccountSettings({ path: '/dashboard/account-settings/nope' });
    expect(await screen.findByDisplayValue('Dana')).toBeTruthy();
  });
});
