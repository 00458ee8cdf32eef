import { fetchFake, server } from '@grove/web-testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import {
  JOIN_FLAG_REASON_TEXT,
  MESSAGES,
  type FlaggedJoinRow,
  type Page,
  type ProspectRow,
} from '@grove/contracts';
import { ProspectiveMembersPage } from './ProspectiveMembersPage';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});
const page = <T,>(items: T[]): Page<T> => ({ items, total: items.length, page: 1, pageSize: 25 });

const stranger: ProspectRow = {
  id: 'p-1',
  name: 'Sam Stranger',
  email: 'sam@x.com',
  referringMemberId: 'm-1',
  referringMemberName: 'Riley Referrer',
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

/** A fake API: GET prospects and flags from these lists; DELETE a flag removes it. */
let prospects: ProspectRow[] = [];
let flags: FlaggedJoinRow[] = [];
let autoApprove = false;
const fetchMock = jest.fn();
beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    const path = url.split('?')[0];
    if (path === '/api/prospects') return reply(200, page(prospects));
    if (path === '/api/prospects/flags') return reply(200, page(flags));
    if (path === '/api/settings/prospects') {
      if (init?.method === 'PUT') autoApprove = JSON.parse(String(init.body)).autoApprove;
      return reply(200, { autoApprove });
    }
    const removed = /^\/api\/prospects\/([^/]+)$/.exec(path);
    if (removed && removed[1] !== 'flags' && init?.method === 'DELETE') {
      prospects = prospects.filter((row) => row.id !== removed[1]);
      return reply(204);
    }
    const dismissed = /^\/api\/prospects\/flags\/(.+)$/.exec(path);
    if (dismissed && init?.method === 'DELETE') {
      const before = flags.length;
      flags = flags.filter((row) => row.id !== dismissed[1]);
      return flags.length < before
        ? reply(204)
        : reply(404, { statusCode: 404, message: MESSAGES.joinFlagNotFound });
    }
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  server.use(fetchFake(fetchMock));
});

function renderPage() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <ProspectiveMembersPage />
      </QueryClientProvider>
    </MemoryRouter>,
  );
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
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Sam Stranger?' })).getByRole(
        'button',
        { name: 'Remove' },
      ),
    );
    await waitFor(() => expect(screen.queryByTestId('prospect-row')).toBeNull());
    expect(
      fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').map(([url]) => url),
    ).toEqual(['/api/prospects/p-1']);
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
    const deletes = fetchMock.mock.calls.filter(
      ([, init]) => (init as RequestInit | undefined)?.method === 'DELETE',
    );
    expect(deletes.map(([url]) => url)).toEqual(['/api/prospects/flags/f-1']);

    await user.click(screen.getByRole('button', { name: 'Dismiss flag for Riley Referrer' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Flagged joins' })).toBeNull(),
    );
    expect(screen.getByText(MESSAGES.noProspects)).toBeTruthy();
  });

  it('shows no flagged card while there are no flags', async () => {
    prospects = [stranger];
    flags = [];
    renderPage();
    await screen.findByTestId('prospect-row');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/prospects/flags')),
      ).toBe(true),
    );
    expect(screen.queryByRole('heading', { name: 'Flagged joins' })).toBeNull();
    expect(screen.queryByTestId('flag-row')).toBeNull();
  });
});
