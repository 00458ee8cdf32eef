import { fetchFake, server } from '@grove/web-testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MemberEmailSettings } from '@grove/contracts';
import { MemberEmailsCard } from './MemberEmailsCard';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

/** A fake API holding the business's settings. */
let stored: MemberEmailSettings;
const fetchMock = jest.fn();
beforeEach(() => {
  stored = { friendJoined: true, branchCounting: true, branchEnded: true, welcome: true };
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    if (url !== '/api/settings/member-emails') throw new Error(`unexpected ${url}`);
    if (init?.method === 'PUT') stored = JSON.parse(String(init.body)) as MemberEmailSettings;
    return reply(200, stored);
  });
  server.use(fetchFake(fetchMock));
});

function renderCard(businessName?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemberEmailsCard businessName={businessName} />
    </QueryClientProvider>,
  );
}

describe('MemberEmailsCard', () => {
  it("names the owner's own business in the welcome example, never another's", async () => {
    renderCard("O'Brien's Boxing");
    expect(
      await screen.findByText("“Welcome to O'Brien's Boxing”, with a link to their own page"),
    ).toBeTruthy();
    expect(screen.queryByText(/Green Valley Fitness/)).toBeNull();
  });

  it('shows each email with what it says, all on, and saves a box the owner turns off', async () => {
    const user = userEvent.setup();
    renderCard();
    const joined = (await screen.findByRole('checkbox', {
      name: /A friend joined with their link/,
    })) as HTMLInputElement;
    expect(joined.checked).toBe(true);
    expect(screen.getByText('“Sam joined with your link”')).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(4);

    await user.click(screen.getByRole('checkbox', { name: /Welcome the approved friend/ }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(stored).toEqual({
      friendJoined: true,
      branchCounting: true,
      branchEnded: true,
      welcome: false,
    });
    await waitFor(() =>
      expect(
        (screen.getByRole('checkbox', { name: /Welcome the approved friend/ }) as HTMLInputElement)
          .checked,
      ).toBe(false),
    );
  });

  it('says why when saving fails', async () => {
    const user = userEvent.setup();
    renderCard();
    fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
      init?.method === 'PUT'
        ? reply(400, { statusCode: 400, message: 'Each email setting must be on or off' })
        : reply(200, stored),
    );
    await user.click(await screen.findByRole('checkbox', { name: /A branch stopped counting/ }));
    expect(await screen.findByText('Each email setting must be on or off')).toBeTruthy();
    expect(screen.queryByText('Saved')).toBeNull();
    // The refused choice is put back.
    expect(
      (screen.getByRole('checkbox', { name: /A branch stopped counting/ }) as HTMLInputElement)
        .checked,
    ).toBe(true);
  });
});
