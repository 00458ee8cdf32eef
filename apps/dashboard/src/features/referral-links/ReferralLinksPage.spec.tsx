import { fetchFake, server } from '@grove/web-testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReferralEmailRun, ReferralLinkRow } from '@grove/contracts';
import { ReferralLinksPage } from './ReferralLinksPage';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

/** A fake 'Email all links' run over 300 members: each poll after the start goes through 120. */
let run: ReferralEmailRun;
/** The members the list answers. */
let rows: ReferralLinkRow[] = [];
const fetchMock = jest.fn();
beforeEach(() => {
  run = { status: 'idle', total: 0, processed: 0, queued: 0, skipped: 0 };
  rows = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    const path = url.split('?')[0];
    if (path === '/api/referral-links/email/preview')
      return reply(200, { members: 298, alreadyEmailed: 2 });
    if (path === '/api/referral-links/email/example')
      return reply(200, {
        memberId: 'm1',
        memberName: 'Anne-Marie Dubois',
        subject: 'Your referral link for Peak Fitness',
        html: '<!doctype html><p>Hi Anne-Marie, share http://grove.test/referral/abc</p>',
        text: 'Hi Anne-Marie, share http://grove.test/referral/abc',
      });
    if (path === '/api/referral-links/email' && init?.method === 'POST') {
      if (run.status !== 'running')
        run = { status: 'running', total: 300, processed: 0, queued: 0, skipped: 0 };
      return reply(202, run);
    }
    if (path === '/api/referral-links/email') {
      if (run.status === 'running') {
        const processed = Math.min(run.total, run.processed + 120);
        run = {
          status: processed === run.total ? 'done' : 'running',
          total: run.total,
          processed,
          queued: Math.max(0, processed - 2),
          skipped: Math.min(processed, 2),
        };
      }
      return reply(200, run);
    }
    if (path === '/api/referral-links')
      return reply(200, { items: rows, total: rows.length, page: 1, pageSize: 25 });
    if (path === '/api/referral-links/all')
      return reply(200, { status: 'idle', total: 0, processed: 0, created: 0, withoutLink: 0 });
    if (path === '/api/referral-links/settings') return reply(200, { autoCreate: false });
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  server.use(fetchFake(fetchMock));
});

describe('ReferralLinksPage: Email all links', () => {
  it('starts one background run, shows its progress, and says how many were emailed and skipped', async () => {
    const user = userEvent.setup();
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
    });
    render(
      <MemoryRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <QueryClientProvider client={client}>
          <ReferralLinksPage />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    // It asks first, with how many members it will email (issue 25); Cancel sends nothing.
    await user.click(await screen.findByRole('button', { name: 'Email all links' }));
    const ask = await screen.findByRole('dialog', {
      name: 'Email 298 members their referral link?',
    });
    expect(ask.textContent).toContain(
      '2 members were emailed it in the last hour and are skipped.',
    );
    // One example: the email a real member gets, subject and rendered body (issue 25).
    expect(ask.textContent).toContain('Example: the email Anne-Marie Dubois will get');
    expect(ask.textContent).toContain('Subject: Your referral link for Peak Fitness');
    const frame = screen.getByTitle('Example email to Anne-Marie Dubois') as HTMLIFrameElement;
    expect(frame.getAttribute('srcdoc')).toContain('http://grove.test/referral/abc');
    expect(frame.getAttribute('sandbox')).toBe('');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Email all links' }));
    await user.click(await screen.findByRole('button', { name: 'Email 298 members' }));
    expect(
      await screen.findByRole('progressbar', { name: 'Emailing referral links' }),
    ).toBeTruthy();
    expect(screen.getByText(/Emailing links… \d+ of 300/)).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Email all links' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await waitFor(
      () =>
        expect(
          screen.getByText(
            'Referral links emailed to 298 members (2 already emailed in the last hour).',
          ),
        ).toBeTruthy(),
      { timeout: 5_000 },
    );
    expect(screen.queryByRole('progressbar', { name: 'Emailing referral links' })).toBeNull();
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts).toHaveLength(1);
  });
});

describe('ReferralLinksPage: members without an email', () => {
  it("shows 'No email' for a member stored without one (a Mindbody client whose email Grove refused)", async () => {
    rows = [{ memberId: 'm1', memberName: 'Nia Lee', memberEmail: '', link: null }];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <MemoryRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <QueryClientProvider client={client}>
          <ReferralLinksPage />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('No email')).toBeTruthy();
  });
});
