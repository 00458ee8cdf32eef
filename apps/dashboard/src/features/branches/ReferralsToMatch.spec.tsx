import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import { REFERRED_BY_MESSAGES } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { AddTreeModal } from './AddTreeModal';
import { ReferralsToMatchCard } from './ReferralsToMatchCard';

const member = (id: string, memberName: string, memberEmail: string) =>
  ({
    id,
    memberName,
    memberEmail,
    membershipPriceCents: 8_900,
    discountCents: 1_000,
    branches: 0,
    branchDetails: [],
    newPriceCents: 8_900,
    status: 'Active',
    managedByIntegration: null,
    referringMemberId: null,
  }) satisfies Schema<'MemberRow'>;

const siobhan = member('m1', "Siobhán O'Brien", 'siobhan@example.ie');
const simon = member('m2', 'Simon Ó Sé', 'simon@example.ie');
const ben = member('m3', "Ben O'Connor", 'ben@example.com');

/** The members search as the API answers it: case-insensitive substring of name or email. */
const search = (text: string) =>
  [siobhan, simon, ben].filter((row) =>
    `${row.memberName} ${row.memberEmail}`.toLowerCase().includes(text.toLowerCase()),
  );

let created: unknown[];
let matched: { memberId: string; body: unknown }[];
let dismissed: string[];
let waiting: Schema<'ReferralsToMatch'>;
let waitingReads: number;

beforeEach(() => {
  created = [];
  matched = [];
  dismissed = [];
  waiting = { items: [], total: 0 };
  waitingReads = 0;
  server.use(
    http.get('/members', ({ query, response }) => {
      const items = search(query.get('search') ?? '');
      return response(200).json({ items, total: items.length, page: 1, pageSize: 8 });
    }),
    http.get('/settings/member-defaults', ({ response }) =>
      response(200).json({ discountCents: 1000, membershipPriceCents: 8900 }),
    ),
    http.post('/members', async ({ request, response }) => {
      created.push(await request.json());
      return response(201).json(ben);
    }),
    http.get('/referrals-to-match', ({ response }) => {
      waitingReads += 1;
      return response(200).json(waiting);
    }),
    http.post('/referrals-to-match/{memberId}/match', async ({ params, request, response }) => {
      matched.push({ memberId: String(params.memberId), body: await request.json() });
      if (params.memberId === 'm9')
        return apiError(409, REFERRED_BY_MESSAGES.alreadyBranch) as never;
      waiting = { items: [], total: 0 };
      return response(200).json(ben);
    }),
    http.post('/referrals-to-match/{memberId}/dismiss', ({ params }) => {
      dismissed.push(String(params.memberId));
      waiting = { items: [], total: 0 };
      return new Response(null, { status: 204 }) as never;
    }),
  );
});

const fillMember = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.type(await screen.findByLabelText('Member name'), "Ben O'Connor");
  await user.type(screen.getByLabelText('Email'), 'ben@example.com');
};

describe('Start Growing: Referred by (issue 33 item 4)', () => {
  it('lists members as the desk types "sio", and adds the new member as the picked one’s branch', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AddTreeModal open onClose={() => undefined} />);
    await fillMember(user);
    const referredBy = screen.getByRole('combobox', { name: 'Referred by (optional)' });
    await user.type(referredBy, 'sio');
    const listbox = await screen.findByRole('listbox');
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(["Siobhán O'Briensiobhan@example.ie"]),
    );
    await user.click(within(listbox).getByRole('option', { name: /Siobhán O'Brien/ }));
    expect((referredBy as HTMLInputElement).value).toBe("Siobhán O'Brien");
    expect(screen.getByText("Adds them as Siobhán O'Brien’s branch.")).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toEqual({
      memberName: "Ben O'Connor",
      memberEmail: 'ben@example.com',
      membershipPriceCents: 8900,
      discountCents: 1000,
      referringMemberId: 'm1',
    });
  });

  it('keeps a name that matches no member as typed, and says it will wait in Referrals to match', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AddTreeModal open onClose={() => undefined} />);
    await fillMember(user);
    await user.type(
      screen.getByRole('combobox', { name: 'Referred by (optional)' }),
      'Jenny (spin class)',
    );
    expect(
      await screen.findByText(
        'No member matches “Jenny (spin class)”: it will wait in Referrals to match.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toMatchObject({ referredByNote: 'Jenny (spin class)' });
    expect(created[0]).not.toHaveProperty('referringMemberId');
  });
});

describe('Referrals to match (issue 33 item 4)', () => {
  const chloe = {
    memberId: 'm4',
    memberName: 'Chloé Dubois-Martin',
    memberEmail: 'chloe@example.fr',
    referredByNote: 'Jenny (spin class)',
    addedAt: '2026-11-20T09:00:00.000Z',
  };

  it('shows nothing while no one waits', async () => {
    const { container } = renderWithProviders(<ReferralsToMatchCard />);
    await waitFor(() => expect(waitingReads).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.innerHTML).toBe('');
  });

  it('matches a waiting member to the member picked, then goes away', async () => {
    waiting = { items: [chloe], total: 1 };
    const user = userEvent.setup();
    renderWithProviders(<ReferralsToMatchCard />);
    expect(await screen.findByRole('heading', { name: 'Referrals to match (1)' })).toBeTruthy();
    expect(screen.getByText(/referred by “Jenny \(spin class\)”/)).toBeTruthy();
    const match = screen.getByRole('button', { name: 'Match' });
    expect((match as HTMLButtonElement).disabled).toBe(true);
    await user.type(
      screen.getByRole('combobox', { name: 'Who referred Chloé Dubois-Martin?' }),
      'simon',
    );
    await user.click(await screen.findByRole('option', { name: /Simon Ó Sé/ }));
    await user.click(match);
    await waitFor(() => expect(matched).toEqual([{ memberId: 'm4', body: { referrerId: 'm2' } }]));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: /Referrals to match/ })).toBeNull(),
    );
  });

  it('says why a match was refused, and dismisses', async () => {
    waiting = { items: [{ ...chloe, memberId: 'm9' }], total: 1 };
    const user = userEvent.setup();
    renderWithProviders(<ReferralsToMatchCard />);
    await user.type(
      await screen.findByRole('combobox', { name: 'Who referred Chloé Dubois-Martin?' }),
      'sio',
    );
    await user.click(await screen.findByRole('option', { name: /Siobhán/ }));
    await user.click(screen.getByRole('button', { name: 'Match' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      REFERRED_BY_MESSAGES.alreadyBranch,
    );
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(dismissed).toEqual(['m9']));
  });
});
