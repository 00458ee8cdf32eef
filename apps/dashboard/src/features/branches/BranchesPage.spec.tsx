import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import type { Schema } from '@grove/api-contract';
import {
  createTestQueryClient,
  http,
  HttpResponse,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { sessionKey } from '@grove/web-data-access';
import { BranchesPage } from './BranchesPage';
import { nestRows } from './nest-rows';

const member = (id: string, memberName: string, referringMemberId: string | null = null) =>
  ({
    id,
    memberName,
    memberEmail: `${id}@harbour.example`,
    membershipPriceCents: 8_900,
    discountCents: 1_000,
    branches: 0,
    branchDetails: [],
    newPriceCents: 8_900,
    status: 'Active',
    managedByIntegration: null,
    referringMemberId,
  }) satisfies Schema<'MemberRow'>;

// Newest first, as the server pages them: branches were added after their trees.
const page: Schema<'MembersPage'> = {
  items: [
    member('m4', 'Liam Chen', 'm3'),
    member('m3', "Siobhán O'Brien", 'm1'),
    member('m2', 'Noah Patel'),
    member('m5', 'Ava Rossi', 'm9'),
    member('m1', 'Anne-Marie Dubois'),
  ],
  total: 5,
  page: 1,
  pageSize: 25,
  referrerNames: { m1: 'Anne-Marie Dubois', m3: "Siobhán O'Brien", m9: 'Mia Walker' },
};

/** How many pages of members the fake API served. */
let memberPages: number;
beforeEach(() => {
  memberPages = 0;
  server.use(
    http.get('/members', ({ response }) => {
      memberPages += 1;
      return response(200).json(page);
    }),
    http.get('/referrals-to-match', ({ response }) => response(200).json({ items: [], total: 0 })),
  );
});

function Address() {
  return <output data-testid="address">{useLocation().search}</output>;
}

function renderPage(address = '/dashboard') {
  renderWithProviders(
    <>
      <BranchesPage />
      <Address />
    </>,
    { route: address },
  );
}

const names = () =>
  screen
    .getAllByTestId('tree-row')
    .map((row) => `${row.dataset.level ?? '-'} ${within(row).getByRole('link').textContent}`);

describe('Branches: trees with their branches nested (issue 25)', () => {
  it("shows the page's order until asked, then each branch under its tree, announced as its branch", async () => {
    renderPage();
    await screen.findByText('Liam Chen');
    expect(names()).toEqual([
      '- Liam Chen',
      "- Siobhán O'Brien",
      '- Noah Patel',
      '- Ava Rossi',
      '- Anne-Marie Dubois',
    ]);
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Show branches under their trees' }),
    );
    expect(screen.getByTestId('address').textContent).toBe('?view=nested');
    expect(names()).toEqual([
      '0 Noah Patel',
      // Ava's referrer is not on this page: she stays a top row.
      '0 Ava Rossi',
      '0 Anne-Marie Dubois',
      "1 Siobhán O'Brien",
      '2 Liam Chen',
    ]);
    const siobhan = screen.getAllByTestId('tree-row')[3]!;
    expect(siobhan.className).toBe('dash-trees__branch');
    expect(within(siobhan).getByText(/Branch of Anne-Marie Dubois/).className).toBe(
      'g-visually-hidden',
    );
    // The paging and filters are the server's: nesting asked for no new page of members.
    expect(memberPages).toBe(1);
  });

  it('opens nested from the URL, and unticking shows the flat list again', async () => {
    renderPage('/dashboard?view=nested&status=Active');
    await screen.findByText('Liam Chen');
    expect(names()[2]).toBe('0 Anne-Marie Dubois');
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Show branches under their trees' }),
    );
    expect(screen.getByTestId('address').textContent).toBe('?status=Active');
    expect(names()[0]).toBe('- Liam Chen');
  });
});

describe('nestRows', () => {
  it('keeps every row once, even a referral cycle', () => {
    const cycle = [member('a', 'A', 'b'), member('b', 'B', 'a'), member('c', 'C')];
    const nested = nestRows(cycle);
    expect(nested.map((entry) => entry.row.id).sort()).toEqual(['a', 'b', 'c']);
    expect(nested.find((entry) => entry.row.id === 'c')?.level).toBe(0);
  });
});

describe('Branches shows each role only what it may do (docs/product.md#staff-accounts)', () => {
  const renderAs = (role: 'owner' | 'front_desk' | 'viewer') => {
    const client = createTestQueryClient();
    client.setQueryData(sessionKey, { role } as Schema<'SessionUser'>);
    renderWithProviders(<BranchesPage tools={<p>Export and import</p>} />, { client });
  };

  it('shows an owner every control', async () => {
    renderAs('owner');
    await screen.findByText('Liam Chen');
    expect(screen.getByRole('button', { name: 'Add New Tree' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Remove Tree' }).length).toBeGreaterThan(0);
    expect(screen.getByText('Export and import')).toBeTruthy();
  });

  it('lets front desk add trees and branches, but not remove trees or export', async () => {
    renderAs('front_desk');
    await screen.findByText('Liam Chen');
    expect(screen.getByRole('button', { name: 'Add New Tree' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Add Branch' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Remove Tree' })).toBeNull();
    expect(screen.queryByText('Export and import')).toBeNull();
  });

  it('shows a viewer no writes at all', async () => {
    renderAs('viewer');
    await screen.findByText('Liam Chen');
    expect(screen.queryByRole('button', { name: 'Add New Tree' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Branch' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Tree' })).toBeNull();
    expect(screen.queryByText('Export and import')).toBeNull();
  });
});

describe("Branches shows a friend Mindbody did not take, with 'Try again' for owners (issue 33 item 4)", () => {
  const failedMessage =
    'Mindbody needs what Grove does not have for a new client: LastName. Add them in Mindbody; the next sync links them by email.';
  const withFriend = (request: Schema<'MindbodyClientRequest'>): Schema<'MembersPage'> => ({
    ...page,
    items: [{ ...member('m6', 'Ana-Sofía', 'm1'), mindbodyClientRequest: request }],
    total: 1,
  });
  const renderAs = (role: 'owner' | 'front_desk') => {
    const client = createTestQueryClient();
    client.setQueryData(sessionKey, { role } as Schema<'SessionUser'>);
    renderWithProviders(<BranchesPage />, { client });
  };

  it("shows why, and an owner's 'Try again' asks the API again", async () => {
    let current = withFriend({ state: 'failed', message: failedMessage });
    const retried: string[] = [];
    server.use(
      http.get('/members', ({ response }) => response(200).json(current)),
      http.post('/mindbody/clients/{memberId}/retry', ({ params }) => {
        retried.push(String(params.memberId));
        current = withFriend({ state: 'pending' });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderAs('owner');
    expect(await screen.findByText(failedMessage)).toBeTruthy();
    expect(screen.getByText('Not added to Mindbody.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Adding to Mindbody…')).toBeTruthy();
    expect(retried).toEqual(['m6']);
  });

  it("shows front desk why, without 'Try again'", async () => {
    server.use(
      http.get('/members', ({ response }) =>
        response(200).json(withFriend({ state: 'failed', message: failedMessage })),
      ),
    );
    renderAs('front_desk');
    expect(await screen.findByText(failedMessage)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
