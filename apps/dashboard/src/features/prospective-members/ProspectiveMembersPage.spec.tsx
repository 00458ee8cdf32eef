import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { JOIN_FLAG_REASON_TEXT, MESSAGES } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { apiError, http, HttpResponse, renderWithProviders, server } from '@grove/web-testing';
import { ProspectiveMembersPage } from './ProspectiveMembersPage';

type ProspectRow = Schema<'ProspectRow'>;
type FlaggedJoinRow = Schema<'FlaggedJoinRow'>;

const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 25 });

const stranger: ProspectRow = {
  id: 'p-1',
  name: 'Sam Stranger',
  email: 'sam@x.com',
  referringMemberId: 'm-1',
  referringMemberName: 'Riley Referrer',
  referredByNote: null,
  managedByIntegration: null,
  flags: [],
  createdAt: '2026-11-23T10:00:00.000Z',
  approvalPrefill: { membershipPriceCents: 8900, discountCents: 1500 },
};
const flag = (
  id: string,
  name: string,
  email: string,
  reasons: FlaggedJoinRow['reasons'],
  attempts = 1,
): FlaggedJoinRow => ({
  id,
  name,
  email,
  referringMemberId: 'm-1',
  referringMemberName: 'Riley Referrer',
  reasons,
  attempts,
  createdAt: '2026-11-23T10:01:00.000Z',
  lastAttemptAt: '2026-11-23T10:05:00.000Z',
});

/** A fake API: GET prospects and flags from these lists; DELETE a prospect or a flag removes it. */
let prospects: ProspectRow[] = [];
let flags: FlaggedJoinRow[] = [];
let autoApprove = false;
/** The business's welcome offer and the offers granted (issue 33 item 1). */
let welcomeOffer: Schema<'WelcomeOffer'> = { kind: 'none' };
let grants: Schema<'WelcomeOfferGrant'>[] = [];
/** The business's Stripe member billing is connected: approvals write the offer there. */
let appliesInStripe = false;
/** The business's Mindbody stage (1: not connected) and the approvals' bodies (issue 33 item 4). */
let mindbodyStage: 1 | 2 | 3 | 4 = 1;
let approvals: unknown[] = [];
/** Every request sent, as 'METHOD /path' (relative to /api, as the client's paths). */
let requests: string[] = [];
beforeEach(() => {
  requests = [];
  appliesInStripe = false;
  server.events.on('request:start', ({ request }) => {
    requests.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api/, '')}`);
  });
  server.use(
    http.get('/mindbody', ({ response }) =>
      response(200).json({
        stage: mindbodyStage,
        siteId: mindbodyStage > 1 ? '-99' : null,
        discounts: null,
        processState: null,
        progress: null,
        lastSyncAt: null,
        invalidEmails: null,
      }),
    ),
    http.post('/prospects/{id}/approve', async ({ request, response }) => {
      const body = (await request.json()) as Schema<'ApproveProspectDto'>;
      approvals.push(body);
      prospects = [];
      return response(201).json({
        id: 'm-9',
        memberName: body.memberName,
        memberEmail: body.memberEmail,
        membershipPriceCents: body.membershipPriceCents,
        discountCents: body.discountCents,
        branches: 0,
        branchDetails: [],
        newPriceCents: body.membershipPriceCents,
        status: 'Active',
        managedByIntegration: null,
        referringMemberId: 'm-1',
        ...(body.addToMindbody ? { mindbodyClientRequest: { state: 'pending' } } : {}),
      } as Schema<'MemberRow'>);
    }),
    http.get('/prospects', ({ response }) => response(200).json(page(prospects))),
    http.get('/prospects/flags', ({ response }) => response(200).json(page(flags))),
    http.get('/settings/prospects', ({ response }) => response(200).json({ autoApprove })),
    http.get('/settings/welcome-offer', ({ response }) => response(200).json(welcomeOffer)),
    http.get('/welcome-offers', ({ response }) =>
      response(200).json({ items: grants, appliesInStripe }),
    ),
    http.post('/welcome-offers/{id}/honoured', ({ params, response }) => {
      grants = grants.map((grant) =>
        grant.id === params.id ? { ...grant, honouredAt: '2026-11-29T09:00:00.000Z' } : grant,
      );
      const marked = grants.find((grant) => grant.id === params.id);
      return marked
        ? response(200).json(marked)
        : apiError(404, 'This welcome offer was not found');
    }),
    http.put('/settings/prospects', async ({ request, response }) => {
      autoApprove = (await request.json()).autoApprove;
      return response(200).json({ autoApprove });
    }),
    http.delete('/prospects/{id}', ({ params }) => {
      prospects = prospects.filter((row) => row.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete('/prospects/flags/{id}', ({ params }) => {
      const before = flags.length;
      flags = flags.filter((row) => row.id !== params.id);
      return flags.length < before
        ? new HttpResponse(null, { status: 204 })
        : apiError(404, MESSAGES.joinFlagNotFound);
    }),
  );
});
afterEach(() => {
  server.events.removeAllListeners();
  mindbodyStage = 1;
  approvals = [];
  welcomeOffer = { kind: 'none' };
  grants = [];
});

/** The paths of the DELETE requests sent. */
const deletes = () =>
  requests.filter((line) => line.startsWith('DELETE ')).map((line) => line.slice(7));

function renderPage() {
  renderWithProviders(<ProspectiveMembersPage />);
}

describe('ProspectiveMembersPage', () => {
  it('asks before removing a prospect; Cancel keeps them, Remove deletes them (issue 25)', async () => {
    prospects = [stranger];
    flags = [];
    const user = userEvent.setup();
    renderPage();
    const row = await screen.findByTestId('prospect-row');
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    const ask = await screen.findByRole('dialog', { name: 'Remove Sam Stranger?' });
    expect(ask.textContent).toContain(
      'Sam Stranger (sam@x.com) will no longer wait for your approval as Riley Referrer’s friend. No email is sent.',
    );
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes()).toEqual([]);

    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Sam Stranger?' })).getByRole(
        'button',
        { name: 'Remove' },
      ),
    );
    await waitFor(() => expect(screen.queryByTestId('prospect-row')).toBeNull());
    expect(deletes()).toEqual(['/prospects/p-1']);
  });

  it('shows the stranger as a prospect and the member and the referrer as flagged lines with their reasons', async () => {
    prospects = [stranger];
    flags = [
      flag('f-1', 'Mia Member', 'mia@x.com', ['already_member'], 3),
      flag('f-2', 'Riley Referrer', 'riley@x.com', ['self_referral']),
    ];
    renderPage();
    const prospectRow = await screen.findByTestId('prospect-row');
    expect(prospectRow.textContent).toContain('Sam Stranger');
    expect(within(prospectRow).getByRole('button', { name: 'Approve' })).toBeTruthy();

    expect(await screen.findByRole('heading', { name: 'Flagged joins' })).toBeTruthy();
    const [mia, riley] = screen.getAllByTestId('flag-row');
    expect(mia.textContent).toContain('Mia Member');
    expect(mia.textContent).toContain('mia@x.com');
    expect(mia.textContent).toContain('Tried to join through Riley Referrer’s link (3 times)');
    expect(within(mia).getByText(JOIN_FLAG_REASON_TEXT.already_member)).toBeTruthy();
    expect(within(riley).getByText(JOIN_FLAG_REASON_TEXT.self_referral)).toBeTruthy();
    expect(riley.textContent).not.toContain('times');
    // A flagged line cannot be approved: it is not a prospective member.
    expect(within(mia).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('shows a prospect with fraud signals with each reason in words and still lets the owner approve or remove', async () => {
    prospects = [
      stranger,
      {
        ...stranger,
        id: 'p-2',
        name: 'Toby Throwaway',
        email: 'toby@mailinator.com',
        flags: ['disposable_email', 'join_burst'],
      },
    ];
    flags = [];
    renderPage();
    const [clean, flagged] = await screen.findAllByTestId('prospect-row');
    expect(within(clean).queryByTestId('prospect-flags')).toBeNull();
    expect(within(flagged).getByText('Check before approving')).toBeTruthy();
    expect(within(flagged).getByText(JOIN_FLAG_REASON_TEXT.disposable_email)).toBeTruthy();
    expect(within(flagged).getByText(JOIN_FLAG_REASON_TEXT.join_burst)).toBeTruthy();
    expect(within(flagged).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(flagged).getByRole('button', { name: 'Remove' })).toBeTruthy();
  });

  it("opens Approve with the referrer's price and discount as real values, not placeholders (issue 25)", async () => {
    prospects = [
      stranger,
      {
        ...stranger,
        id: 'p-2',
        name: 'Anne-Marie Dubois',
        email: 'anne-marie@example.fr',
        approvalPrefill: { membershipPriceCents: null, discountCents: 750 },
      },
    ];
    flags = [];
    const user = userEvent.setup();
    renderPage();
    const rows = await screen.findAllByTestId('prospect-row');
    await user.click(within(rows[0]!).getByRole('button', { name: 'Approve' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add a New Branch to Riley Referrer' });
    const price = () => within(dialog).getByLabelText('Current Membership ($)') as HTMLInputElement;
    const discount = () =>
      within(dialog).getByLabelText('Discount Per Referral ($)') as HTMLInputElement;
    expect([price().value, discount().value]).toEqual(['89.00', '15.00']);
    expect(price().placeholder).toBe('');
    await user.click(within(dialog).getByRole('button', { name: /close/i }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // A price known neither from the referrer nor the defaults starts empty, with no grey hint.
    await user.click(within(rows[1]!).getByRole('button', { name: 'Approve' }));
    dialog = await screen.findByRole('dialog', { name: 'Add a New Branch to Riley Referrer' });
    expect([price().value, price().placeholder, discount().value]).toEqual(['', '', '7.50']);
  });

  it("shows a friend of the business's join page with what they typed, and approves them as a new tree (issue 33 item 4)", async () => {
    prospects = [
      {
        ...stranger,
        id: 'p-3',
        name: 'Ben O’Connor',
        email: 'ben@example.ie',
        referringMemberId: null,
        referringMemberName: null,
        referredByNote: 'Jenny (spin class)',
      },
    ];
    flags = [];
    const user = userEvent.setup();
    renderPage();
    const [row] = await screen.findAllByTestId('prospect-row');
    expect(within(row!).getByTestId('prospect-referred-by-note').textContent).toBe(
      'Join page · referred by “Jenny (spin class)”',
    );
    expect(within(row!).queryByRole('link', { name: /Jenny/ })).toBeNull();
    await user.click(within(row!).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Ben O’Connor' });
    expect(dialog.textContent).toContain(
      '“Jenny (spin class)” then waits in Referrals to match on Branches',
    );
  });

  it("turns 'Approve automatically' on", async () => {
    const user = userEvent.setup();
    prospects = [];
    flags = [];
    autoApprove = false;
    renderPage();
    const box = (await screen.findByRole('checkbox', {
      name: /Approve automatically/,
    })) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await user.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    expect(autoApprove).toBe(true);
  });

  it('dismisses a flagged line; the card goes when the last one is dismissed', async () => {
    const user = userEvent.setup();
    prospects = [];
    flags = [
      flag('f-1', 'Mia Member', 'mia@x.com', ['already_member']),
      flag('f-2', 'Riley Referrer', 'riley@x.com', ['self_referral']),
    ];
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Dismiss flag for Mia Member' }));
    await waitFor(() => expect(screen.getAllByTestId('flag-row')).toHaveLength(1));
    expect(screen.getByTestId('flag-row').textContent).toContain('Riley Referrer');
    expect(deletes()).toEqual(['/prospects/flags/f-1']);

    await user.click(screen.getByRole('button', { name: 'Dismiss flag for Riley Referrer' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Flagged joins' })).toBeNull(),
    );
    expect(screen.getByText(MESSAGES.noProspects)).toBeTruthy();
  });

  it("states the business's welcome offer in the approval dialog (issue 33 item 1)", async () => {
    prospects = [stranger];
    flags = [];
    welcomeOffer = { kind: 'free', amountCents: null, percent: null, months: 1, text: null };
    const user = userEvent.setup();
    renderPage();
    const row = await screen.findByTestId('prospect-row');
    await user.click(within(row).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Add a New Branch to Riley Referrer',
    });
    expect((await within(dialog).findByTestId('approval-welcome-offer')).textContent).toBe(
      'Welcome offer: Your first month free. It is listed under ‘Welcome offers to honour’ once you approve Sam Stranger.',
    );
  });

  it("says what the friend's Stripe subscription gets at a gym billing on Stripe (issue 33 item 1)", async () => {
    prospects = [stranger];
    flags = [];
    appliesInStripe = true;
    welcomeOffer = { kind: 'free', amountCents: null, percent: null, months: 1, text: null };
    const user = userEvent.setup();
    renderPage();
    const row = await screen.findByTestId('prospect-row');
    await user.click(within(row).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Add a New Branch to Riley Referrer',
    });
    await waitFor(() =>
      expect(within(dialog).getByTestId('approval-welcome-offer').textContent).toBe(
        'Welcome offer: Your first month free. Stripe: the friend’s subscription gets ‘Your first month free’ as a coupon when you approve (on their next invoices; the subscription is found by their email).',
      ),
    );
  });

  it('shows an offer applied in Stripe as applied, and one Stripe could not take with its reason', async () => {
    prospects = [];
    flags = [];
    const grant = {
      memberId: 'm-2',
      offer: { kind: 'free' as const, amountCents: null, percent: null, months: 1, text: null },
      wording: 'Your first month free',
      grantedAt: '2026-11-28T10:00:00.000Z',
    };
    grants = [
      {
        ...grant,
        id: 'g-2',
        memberName: "Ben O'Connor",
        honouredAt: null,
        stripe: { state: 'failed', subscriptionId: null, note: 'Stripe refused the coupon: No.' },
      },
      {
        ...grant,
        id: 'g-1',
        memberName: "Zoë D'Arcy-Nguyễn",
        honouredAt: '2026-11-28T10:00:05.000Z',
        stripe: { state: 'applied', subscriptionId: 'sub_1', note: null },
      },
    ];
    renderPage();
    const [failed, applied] = await screen.findAllByTestId('welcome-offer-row');
    expect(failed?.textContent).toContain('Stripe refused the coupon: No.');
    expect(within(failed as HTMLElement).getByRole('button')).toBeTruthy();
    expect(applied?.textContent).toContain('Applied in Stripe');
    expect(within(applied as HTMLElement).queryByRole('button')).toBeNull();
  });

  it('lists the welcome offers to honour and marks one honoured (issue 33 item 1)', async () => {
    prospects = [];
    flags = [];
    grants = [
      {
        id: 'g-1',
        memberId: 'm-2',
        memberName: "Siobhán O'Brien",
        offer: { kind: 'amount', amountCents: 2000, percent: null, months: 3, text: null },
        wording: '$20 off your first 3 months',
        grantedAt: '2026-11-28T10:00:00.000Z',
        honouredAt: null,
        stripe: null,
      },
    ];
    const user = userEvent.setup();
    renderPage();
    const row = await screen.findByTestId('welcome-offer-row');
    expect(row.textContent).toContain("Siobhán O'Brien");
    expect(row.textContent).toContain('$20 off your first 3 months');
    expect(
      screen.getByText(
        '1 approved friend was promised a welcome offer. Apply it in your billing, then mark it honoured.',
      ),
    ).toBeTruthy();
    await user.click(
      screen.getByRole('button', { name: "Mark Siobhán O'Brien’s welcome offer honoured" }),
    );
    expect(await screen.findByText('Every welcome offer has been honoured.')).toBeTruthy();
    expect(requests).toContain('POST /welcome-offers/g-1/honoured');
    expect(within(screen.getByTestId('welcome-offer-row')).queryByRole('button')).toBeNull();
  });

  it('shows no flagged card while there are no flags', async () => {
    prospects = [stranger];
    flags = [];
    renderPage();
    await screen.findByTestId('prospect-row');
    await waitFor(() => expect(requests).toContain('GET /prospects/flags'));
    expect(screen.queryByRole('heading', { name: 'Flagged joins' })).toBeNull();
    expect(screen.queryByTestId('flag-row')).toBeNull();
  });

  it("offers 'Add to Mindbody' at a Mindbody gym, unticked, and sends it only when ticked (issue 33 item 4)", async () => {
    const friend: ProspectRow = {
      ...stranger,
      name: "Zoë D'Arcy-Nguyễn",
      email: 'zoe@example.com',
    };
    prospects = [friend];
    flags = [];
    mindbodyStage = 4;
    const user = userEvent.setup();
    renderPage();
    const [row] = await screen.findAllByTestId('prospect-row');
    await user.click(within(row!).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Add a New Branch to Riley Referrer',
    });
    const option = (await within(dialog).findByRole('checkbox', {
      name: /Add to Mindbody/,
    })) as HTMLInputElement;
    expect(option.checked).toBe(false);
    await user.click(option);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(approvals).toHaveLength(1));
    expect(approvals[0]).toMatchObject({ memberEmail: 'zoe@example.com', addToMindbody: true });
  });

  it("offers no 'Add to Mindbody' without Mindbody, and sends none", async () => {
    prospects = [stranger];
    flags = [];
    const user = userEvent.setup();
    renderPage();
    const [row] = await screen.findAllByTestId('prospect-row');
    await user.click(within(row!).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Add a New Branch to Riley Referrer',
    });
    await waitFor(() => expect(requests).toContain('GET /mindbody'));
    expect(within(dialog).queryByRole('checkbox', { name: /Add to Mindbody/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(approvals).toHaveLength(1));
    expect(approvals[0]).not.toHaveProperty('addToMindbody');
  });
});
