import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import type { Schema } from '@grove/api-contract';
import { MESSAGES } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { MemberProfilePage } from './MemberProfilePage';

type MemberProfile = Schema<'MemberProfile'>;

const profile = (overrides: Partial<MemberProfile['member']> = {}): MemberProfile => ({
  member: {
    id: 'ann',
    memberName: 'Ann Root',
    memberEmail: 'ann@x.com',
    membershipPriceCents: 10000,
    discountCents: 1500,
    branches: 2,
    branchDetails: [],
    newPriceCents: 7000,
    status: 'Active',
    managedByIntegration: null,
    referringMemberId: 'zed',
    ...overrides,
  },
  joinedAt: '2026-03-01T09:00:00.000Z',
  referredBy: { id: 'zed', name: 'Zed Elder' },
  tree: [
    {
      id: 'bea',
      name: 'Bea Branch',
      joinedAt: '2026-04-02T09:00:00.000Z',
      status: 'Active',
      hiddenBranches: 0,
      branches: [
        {
          id: 'dan',
          name: 'Dan Twig',
          joinedAt: '2026-05-03T09:00:00.000Z',
          status: 'Active',
          branches: [],
          hiddenBranches: 3,
        },
      ],
    },
    {
      id: 'cal',
      name: 'Cal Branch',
      joinedAt: '2026-06-04T09:00:00.000Z',
      status: 'Pending',
      branches: [],
      hiddenBranches: 0,
    },
  ],
  ledger: [
    {
      occurredAt: '2026-06-04T09:00:00.000Z',
      reason: 'branch_added',
      oldPriceCents: 8500,
      newPriceCents: 7000,
      branchName: 'Cal Branch',
    },
    {
      occurredAt: '2026-03-01T09:00:00.000Z',
      reason: 'member_added',
      oldPriceCents: null,
      newPriceCents: 10000,
      branchName: null,
    },
  ],
  referralLink: {
    code: 'abcdefghijklmnop',
    url: 'http://grove.test/referral/abcdefghijklmnop',
    createdAt: '2026-03-01T09:00:00.000Z',
    expiresAt: null,
  },
  prospects: [
    {
      id: 'p1',
      name: 'Pat Friend',
      email: 'pat@x.com',
      joinedAt: '2026-07-01T09:00:00.000Z',
      status: 'waiting',
      memberId: null,
    },
    {
      id: 'p2',
      name: 'Siobhán O’Brien',
      email: 'siobhan@x.com',
      joinedAt: '2026-06-01T09:00:00.000Z',
      status: 'approved',
      memberId: 'sio',
    },
    {
      id: 'p3',
      name: 'Anne-Marie Dubois',
      email: 'am@x.com',
      joinedAt: '2026-05-01T09:00:00.000Z',
      status: 'removed',
      memberId: null,
    },
  ],
});

let current: MemberProfile | null;
/** The bodies of every PATCH the fake API saw. */
let patches: unknown[];
beforeEach(() => {
  current = profile();
  patches = [];
  server.use(
    // The member's history (its own spec is the journey audit-log.spec.ts): empty here.
    http.get('/audit-log', ({ response }) =>
      response(200).json({ items: [], total: 0, page: 1, pageSize: 25 }),
    ),
    http.get('/audit-log/authors', ({ response }) => response(200).json([])),
    http.get('/members/{id}/profile', ({ params, response }) => {
      if (params.id === 'ann' && current) return response(200).json(current);
      if (params.id === 'cal')
        return response(200).json({
          ...profile({ id: 'cal', memberName: 'Cal Branch' }),
          tree: [],
          ledger: [],
          prospects: [],
        });
      return apiError(404, MESSAGES.memberNotFound);
    }),
    // A business without Stripe member billing: nothing to show.
    http.get('/stripe-members/members/{id}/next-charge', () =>
      apiError(409, MESSAGES.stripeNotConnected),
    ),
    http.patch('/members/{id}', async ({ params, request, response }) => {
      const body = await request.json();
      patches.push(body);
      if (params.id !== 'ann' || !current) return apiError(404, MESSAGES.memberNotFound);
      current = { ...current, member: { ...current.member, memberName: body.memberName ?? '' } };
      return response(200).json(current.member);
    }),
  );
});

function renderAt(path: string) {
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/members/:id" element={<MemberProfilePage />} />
      <Route path="/dashboard/branches" element={<p>Branches screen</p>} />
    </Routes>,
    { route: path },
  );
}

describe('MemberProfilePage', () => {
  it('shows the details, whose branch they are, the link, the ledger in words and the waiting prospects', async () => {
    renderAt('/dashboard/members/ann');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann Root' })).toBeTruthy();
    expect(screen.getByText(/Member since 1 Mar 2026/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zed Elder' }).getAttribute('href')).toBe(
      '/dashboard/members/zed',
    );
    expect(screen.getByTestId('price-now').textContent).toBe('$70.00was $100.00');
    expect(
      screen.getByRole('link', { name: 'http://grove.test/referral/abcdefghijklmnop' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'QR (PNG)' }).getAttribute('href')).toMatch(
      /^\/api\/members\/ann\/referral-link\/qr\.png$/,
    );
    const lines = screen.getAllByTestId('ledger-line').map((row) => row.textContent);
    expect(lines[0]).toContain('New branch: Cal Branch');
    expect(lines[0]).toContain('$85.00');
    expect(lines[0]).toContain('$70.00');
    expect(lines[1]).toContain('Became a member');
    // Everyone who joined through the link, with where they stand (issue 25).
    const joined = screen.getAllByTestId('profile-prospect').map((row) => row.textContent);
    expect(joined[0]).toContain('Pat Friend');
    expect(joined[0]).toContain('Waiting for approval');
    expect(joined[1]).toContain('Approved: now a branch');
    expect(joined[2]).toContain('Anne-Marie Dubois');
    expect(joined[2]).toContain('Removed');
    expect(screen.getByRole('link', { name: 'Siobhán O’Brien' }).getAttribute('href')).toBe(
      '/dashboard/members/sio',
    );
    expect(screen.getByRole('link', { name: 'Review on Prospective Members' })).toBeTruthy();
  });

  it('draws the referral tree as an accessible tree two levels deep, with dates and the branches not drawn', async () => {
    renderAt('/dashboard/members/ann');
    const tree = await screen.findByRole('tree', { name: 'Referral tree of Ann Root' });
    const items = within(tree).getAllByRole('treeitem');
    expect(items.map((item) => item.getAttribute('aria-level'))).toEqual(['1', '2', '1']);
    expect(items[0]?.getAttribute('aria-expanded')).toBe('true');
    expect(items[1]?.textContent).toContain('Dan Twig');
    expect(items[1]?.textContent).toContain('joined 3 May 2026');
    expect(items[1]?.textContent).toContain('+ 3 more branches');
    // A branch that does not count yet says so; one that counts carries no badge.
    expect(items[2]?.textContent).toContain('Pending');
    expect(items[1]?.textContent).not.toContain('Active');
    // One tab stop: the first member.
    expect(items.map((item) => item.tabIndex)).toEqual([0, -1, -1]);
  });

  it('moves through the tree with the arrow keys, closes and opens a member’s branches, and opens a profile with Enter', async () => {
    const user = userEvent.setup();
    renderAt('/dashboard/members/ann');
    const tree = await screen.findByRole('tree');
    const [bea] = within(tree).getAllByRole('treeitem');
    bea?.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toContain('Dan Twig');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toContain('Cal Branch');
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(bea);
    await user.keyboard('{ArrowLeft}');
    expect(bea?.getAttribute('aria-expanded')).toBe('false');
    expect(within(tree).getAllByRole('treeitem')).toHaveLength(2);
    await user.keyboard('{ArrowRight}');
    expect(bea?.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement?.textContent).toContain('Dan Twig');
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(bea);
    await user.keyboard('{End}{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cal Branch' })).toBeTruthy();
  });

  it('edits a member kept by hand with the add-member rules, and saves', async () => {
    const user = userEvent.setup();
    renderAt('/dashboard/members/ann');
    await user.click(await screen.findByRole('button', { name: 'Edit details' }));
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(patches).toEqual([]);
    await user.clear(email);
    await user.type(email, 'ann@x.com');
    const name = screen.getByLabelText('Member name');
    await user.clear(name);
    await user.type(name, 'Ann Renamed');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann Renamed' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Changes saved.');
    expect(patches).toHaveLength(1);
    expect(patches[0]).toEqual({
      memberName: 'Ann Renamed',
      memberEmail: 'ann@x.com',
      membershipPriceCents: 10_000,
      discountCents: 1500,
    });
  });

  it('offers no editing for a member Mindbody manages, and shows how they heard of the business and what Mindbody will charge', async () => {
    current = profile({
      managedByIntegration: 'Mindbody',
      mindbodyReferralSource: 'Instagram',
      mindbodyNextCharge: { amountCents: 10_890, on: '2026-12-01T00:00:00.000Z' },
    });
    renderAt('/dashboard/members/ann');
    expect(await screen.findByText(MESSAGES.managedByMindbody)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit details' })).toBeNull();
    expect(screen.getByText('Instagram (in Mindbody)')).toBeTruthy();
    expect(screen.getByText('Mindbody will charge $108.90 on 1 Dec 2026')).toBeTruthy();
  });

  it('shows what Stripe will charge a member billed on Stripe, in the subscription’s currency', async () => {
    current = profile({ stripeBilling: 'running' });
    server.use(
      http.get('/stripe-members/members/{id}/next-charge', ({ params, response }) =>
        params.id === 'ann'
          ? response(200).json({
              amountCents: 4_850,
              currency: 'usd',
              at: '2026-12-05T09:00:00.000Z',
            })
          : apiError(404, MESSAGES.stripeNoSubscription),
      ),
    );
    renderAt('/dashboard/members/ann');
    expect(await screen.findByText('Stripe will charge USD 48.50 on 5 Dec 2026')).toBeTruthy();
  });

  it('shows "Ended" instead of a price once the member’s Stripe subscription has ended', async () => {
    current = profile({ stripeBilling: 'ended', status: 'Ended' });
    renderAt('/dashboard/members/ann');
    expect((await screen.findByTitle('Subscription ended in Stripe')).textContent).toContain(
      'Ended',
    );
    expect(screen.queryByText(/Stripe will charge/)).toBeNull();
  });

  it('says "Member not found" with a way back for an unknown or other business’s member', async () => {
    const user = userEvent.setup();
    renderAt('/dashboard/members/someone-else');
    expect(await screen.findByRole('heading', { name: MESSAGES.memberNotFound })).toBeTruthy();
    expect(
      screen.getByText('This member does not exist or is not one of your members.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Back to Branches' }));
    await waitFor(() => expect(screen.getByText('Branches screen')).toBeTruthy());
  });
});
