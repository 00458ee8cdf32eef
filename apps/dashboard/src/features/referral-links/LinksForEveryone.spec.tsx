import { fetchFake, server } from '@grove/web-testing';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReferralLinkRun } from '@grove/contracts';
import { LinksForEveryone } from './LinksForEveryone';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

/** A fake server run: each status poll after the start advances it by 500 of 1,200 members. */
let run: ReferralLinkRun;
let autoCreate: boolean;
const fetchMock = jest.fn();
beforeEach(() => {
  run = { status: 'idle', total: 0, processed: 0, created: 0, withoutLink: 1200 };
  autoCreate = false;
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    if (url === '/api/referral-links/all' && init?.method === 'POST') {
      if (run.status !== 'running')
        run = {
          status: 'running',
          total: run.withoutLink,
          processed: 0,
          created: 0,
          withoutLink: run.withoutLink,
        };
      return reply(202, run);
    }
    if (url === '/api/referral-links/all') {
      if (run.status === 'running') {
        const processed = Math.min(run.total, run.processed + 500);
        run = {
          status: processed === run.total ? 'done' : 'running',
          total: run.total,
          processed,
          created: processed,
          withoutLink: run.total - processed,
        };
      }
      return reply(200, run);
    }
    if (url === '/api/referral-links/settings' && init?.method === 'PUT') {
      autoCreate = (JSON.parse(String(init.body)) as { autoCreate: boolean }).autoCreate;
      return reply(200, { autoCreate });
    }
    if (url === '/api/referral-links/settings') return reply(200, { autoCreate });
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  server.use(fetchFake(fetchMock));
});

function renderCard() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <LinksForEveryone />
    </QueryClientProvider>,
  );
}

describe('LinksForEveryone', () => {
  it('creates links for all members in one request and shows the progress until every member has one', async () => {
    const user = userEvent.setup();
    renderCard();
    expect(await screen.findByText('1,200 members without a link.')).toBeTruthy();
    await user.click(
      screen.getByRole('button', { name: 'Create links for all members without one' }),
    );
    expect(
      await screen.findByRole('progressbar', { name: 'Creating referral links' }),
    ).toBeTruthy();
    await waitFor(
      () => expect(screen.getByText(/Every member has a referral link\./)).toBeTruthy(),
      {
        timeout: 5_000,
      },
    );
    expect(screen.getByText(/Last run created 1,200 links\./)).toBeTruthy();
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(
      (
        screen.getByRole('button', {
          name: 'Create links for all members without one',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
  });

  it('turns automatic links for new members on', async () => {
    const user = userEvent.setup();
    renderCard();
    const box = await screen.findByRole('checkbox', {
      name: /Create a referral link automatically/,
    });
    await waitFor(() => expect((box as HTMLInputElement).disabled).toBe(false));
    await user.click(box);
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    expect(autoCreate).toBe(true);
  });

  it('keeps the tick the owner gave while the setting is being saved, and takes it back if saving fails', async () => {
    let answer: (value: ReturnType<typeof reply>) => void = () => undefined;
    const plain = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) =>
      url === '/api/referral-links/settings' && init?.method === 'PUT'
        ? new Promise((resolve) => (answer = resolve))
        : plain?.(url, init),
    );
    renderCard();
    const box = (await screen.findByRole('checkbox', {
      name: /Create a referral link automatically/,
    })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    // A plain click, read straight after (as a browser paints it): no waiting for the mutation.
    fireEvent.click(box);
    // The request is still unanswered: the box stays ticked.
    expect(box.checked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(box.checked).toBe(true);
    answer(reply(503, { message: 'Service unavailable' }));
    await waitFor(() => expect(box.checked).toBe(false));
  });
});
